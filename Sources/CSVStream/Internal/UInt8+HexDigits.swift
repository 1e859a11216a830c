extension UInt8 {
    /// Two upper-case hex digits, as error messages print bytes (`96` for 0x96).
    var hexDigits: String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(self >> 4)], digits[Int(self & 0x0F)]], as: UTF8.self)
    }
}
