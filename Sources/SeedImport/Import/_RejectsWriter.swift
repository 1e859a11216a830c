import Foundation

/// Writes rejected rows as CSV: `file,line,column,entity,attribute,value,reason,raw`, where `raw` is the
/// record's original text (decoded with the file's encoding; undecodable bytes as U+FFFD).
///
/// The file is created at the first reject, so a clean import leaves none behind.
final class _RejectsWriter {
    let path: String
    private var handle: UnsafeMutablePointer<FILE>?
    private(set) var count = 0
    private(set) var failure: String?

    static let header = "file,line,column,entity,attribute,value,reason,raw"

    init(path: String) {
        self.path = path
    }

    deinit { close() }

    func write(file: String, line: Int, column: Int?, entity: String?, attribute: String?, value: String?,
               reason: String, raw: String) {
        if handle == nil {
            guard failure == nil else { return }
            guard let opened = fopen(path, "w") else {
                failure = "cannot write the rejects file \(path): \(String(cString: strerror(errno)))"
                return
            }
            handle = opened
            emit(Self.header + "\n")
        }
        let fields = [file, String(line), column.map(String.init) ?? "", entity ?? "", attribute ?? "", value ?? "", reason, raw]
        emit(fields.map(Self.quote).joined(separator: ",") + "\n")
        count += 1
    }

    func close() {
        if let handle { fclose(handle) }
        handle = nil
    }

    private func emit(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, handle) }
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || field.hasPrefix(" ") || field.hasSuffix(" ") else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
