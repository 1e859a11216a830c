import Foundation

extension ObjectModel {
    /// Reads a model from JSON text in SeedStore's model format (see the README's "Model files").
    ///
    /// Every problem is reported at once, in file order, each with its place in the file
    /// (`entities[0] (Well).attributes[3] (uwi)`): keys the format does not have (with the nearest
    /// one), missing or mistyped values, unknown types, then the checks every model gets.
    ///
    /// For example:
    ///
    /// ```swift
    /// let model = try ObjectModel(json: Data("""
    /// {"entities": [{"name": "Task", "attributes": [
    ///     {"name": "task_description", "type": "String", "optional": false},
    ///     {"name": "priority", "type": "Integer 32", "optional": false, "default": 5}]}]}
    /// """.utf8))
    /// ```
    /// - Throws: ``ModelError`` listing every problem, naming `file` when given.
    public convenience init(json: Data, file: String? = nil) throws(ModelError) {
        let root: Any
        do { root = try JSONSyntaxError.parse(json) } catch {
            throw ModelError.file(file ?? "(json)", "\(error); \(error.hint)")
        }
        var reader = _ModelJSONReader()
        reader.read(root)
        let problems = reader.allProblems()
        guard problems.isEmpty else { throw ModelError(problems: problems, file: file) }
        let descriptions = reader.descriptions
        do { try self.init(descriptions) } catch {
            var error = error
            error.file = file
            throw error
        }
    }

    /// The model as JSON in SeedStore's model format: what ``init(json:file:)`` reads back.
    public func jsonData() -> Data {
        let entities: [[String: Any]] = entities.map { entity in
            var object: [String: Any] = ["name": entity.name]
            object["attributes"] = entity.attributes.map { attribute -> [String: Any] in
                var a: [String: Any] = ["name": attribute.name, "type": attribute.type.rawValue,
                                        "optional": attribute.isOptional]
                if attribute.isIndexed { a["indexed"] = true }
                if let transformer = attribute.valueTransformerName { a["transformer"] = transformer }
                if attribute.allowsExternalBinaryDataStorage { a["allowsExternalStorage"] = true }
                if let value = attribute.defaultValue, let json = value.jsonDefault { a["default"] = json }
                return a
            }
            object["relationships"] = entity.relationships.map { relationship -> [String: Any] in
                var r: [String: Any] = ["name": relationship.name, "destination": relationship.destination,
                                        "toMany": relationship.isToMany, "deleteRule": relationship.deleteRule.rawValue,
                                        "optional": relationship.isOptional]
                if let inverse = relationship.inverse { r["inverse"] = inverse }
                if relationship.minCount != 0 { r["minCount"] = relationship.minCount }
                if relationship.maxCount != 0 { r["maxCount"] = relationship.maxCount }
                if relationship.isOrdered { r["ordered"] = true }
                return r
            }
            return object
        }
        return (try? JSONSerialization.data(withJSONObject: ["entities": entities], options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}

extension Value {
    /// Reads a default value from JSON (a number, string or boolean) for an attribute of `type`.
    /// The Double a JSON number stands for, correctly rounded. Foundation reads a number with many digits
    /// (`0.12345678901234567`) as an `NSDecimalNumber`, whose `doubleValue` can be one unit in the last
    /// place off; its digits, read as a Double, are not.
    static func double(_ number: NSNumber) -> Double {
        if let decimal = number as? NSDecimalNumber, let exact = Double(decimal.decimalValue.description) { return exact }
        return number.doubleValue
    }

    init?(jsonDefault raw: Any, type: AttributeType) {
        if let text = raw as? String {
            self.init(defaultString: text, type: type)
            return
        }
        if let number = raw as? NSNumber {
            // JSON's true and false, or a number; a number that is not the value exactly (2 for a Boolean,
            // 2.9 for an integer) is refused rather than cut.
            let kind = String(cString: number.objCType)
            let isBool = kind == "c"
            let isWhole = isBool || !["f", "d"].contains(kind)
            // Past Int64.max JSON's whole numbers are unsigned: int64Value would wrap them to negatives.
            if kind == "Q" && number.uint64Value > UInt64(Int64.max) { return nil }
            if type == .boolean {
                guard isBool || (isWhole && (number.int64Value == 0 || number.int64Value == 1)) else { return nil }
                self = .bool(number.boolValue)
            } else if type.isInteger {
                if isBool { return nil }
                if !isWhole {
                    let double = Self.double(number)
                    guard double.rounded() == double, double >= -0x1p63, double < 0x1p63 else { return nil }
                }
                self = .integer(number.int64Value)
            } else if type == .double || type == .float {
                self = .double(Self.double(number))
            } else if type == .decimal {
                // Whole numbers through their integer (decimalValue may pass through a double), others
                // through the double's shortest text.
                if isBool { return nil }
                // A double Decimal cannot hold (1e128) is no default.
                // Digits Foundation kept as written (a long fraction) stay exact, so the model check can refuse
                // the ones the store would round.
                guard let decimal = kind == "Q" ? Decimal(number.uint64Value) : isWhole ? Decimal(number.int64Value)
                        : (number as? NSDecimalNumber)?.decimalValue
                        ?? Decimal(string: "\(number.doubleValue)", locale: Locale(identifier: "en_US_POSIX")) else { return nil }
                self = .decimal(decimal)
            } else if type == .date {
                guard let date = Self.defaultDate(seconds: Self.double(number)) else { return nil }
                self = .date(date)
            } else {
                return nil
            }
            return
        }
        return nil
    }

    /// Reads a default value written as text (Xcode's `defaultValueString`).
    init?(defaultString text: String, type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64:
            guard let v = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = .integer(v)
        case .double, .float:
            guard let v = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = .double(v)
        case .decimal:
            guard let v = Decimal(string: text) else { return nil }
            self = .decimal(v)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": self = .bool(true)
            case "no", "false", "0": self = .bool(false)
            default: return nil
            }
        case .string: self = .string(text)
        case .date:
            // Seconds since 2001 (Xcode writes them), or ISO 8601 in UTC: a day, or a time with its zone.
            if let v = Double(text) {
                guard let date = Self.defaultDate(seconds: v) else { return nil }
                self = .date(date)
                return
            }
            if let seconds = ISO8601.seconds(parsing: text) {
                self = .date(Date(timeIntervalSinceReferenceDate: seconds))
                return
            }
            return nil
        case .uuid:
            guard let v = UUID(uuidString: text) else { return nil }
            self = .uuid(v)
        case .uri:
            guard let v = URL(string: text) else { return nil }
            self = .uri(v)
        case .binary, .transformable:
            return nil
        }
    }

    /// A Date default `seconds` after 2001-01-01, when it falls in the years 1 to 9999 (not NaN, not 1e300,
    /// which no date reader or writer takes back).
    static func defaultDate(seconds: Double) -> Date? {
        guard seconds.isFinite, (-63_113_904_000.0...252_423_993_599.999).contains(seconds) else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The value as a JSON default (dates as seconds since 2001).
    var jsonDefault: Any? {
        switch self {
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): "\(v)"
        case .string(let v): v
        case .bool(let v): v
        case .date(let v): v.timeIntervalSinceReferenceDate
        case .uuid(let v): v.uuidString
        case .uri(let v): v.absoluteString
        case .null, .data, .object: nil
        }
    }
}
