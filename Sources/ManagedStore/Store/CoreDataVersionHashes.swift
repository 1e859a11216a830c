import Foundation

/// Core Data's entity version hashes for a model, read from a file Core Data's tools wrote, to put in a
/// store's metadata so that Core Data opens the store with that model.
///
/// Core Data opens a store only when the `NSStoreModelVersionHashes` of its metadata equal the model's
/// `entityVersionHashesByName`. Core Data's hash algorithm is not public, so SeedStore cannot compute
/// them; it takes them from either of two files:
///
/// - a compiled model (`Model.momd`, from the app's build products) or its `VersionInfo.plist`, which holds
///   `NSManagedObjectModel_VersionHashes` by version, and the current version's name;
/// - a property list of entity names to hash data, as `entityVersionHashesByName` gives it on a Mac
///   (`PropertyListSerialization.data(fromPropertyList: model.entityVersionHashesByName, …)`).
///
/// For example:
///
/// ```swift
/// let hashes = try CoreDataVersionHashes(contentsOf: "Build/Products/Debug-iphonesimulator/App.app/Model.momd")
/// try store.writeCoreDataVersionHashes(hashes)
/// ```
public struct CoreDataVersionHashes: Sendable, Equatable {
    /// Each entity's hash (32 bytes, as Core Data writes them).
    public let hashes: [String: Data]
    /// The model version the hashes belong to, when the file names one.
    public let versionName: String?

    /// Hashes given directly (from `entityVersionHashesByName`).
    ///
    /// For example:
    ///
    /// ```swift
    /// let hashes = CoreDataVersionHashes(hashes: ["Book": Data(repeating: 0, count: 32)])
    /// ```
    public init(hashes: [String: Data], versionName: String? = nil) {
        self.hashes = hashes
        self.versionName = versionName
    }

    /// Reads the hashes from a `.momd` directory, its `VersionInfo.plist`, or a property list of entity
    /// names to data.
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` naming the file and what it lacks.
    public init(contentsOf path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .invalidRequest("\(path): no such file; give the app's compiled model (Model.momd) or its VersionInfo.plist")
        }
        let file = isDirectory.boolValue ? (path as NSString).appendingPathComponent("VersionInfo.plist") : path
        // Xcode's source of a model, not the app's compiled one: its hashes are made by compiling it.
        if ["xcdatamodeld", "xcdatamodel"].contains((path as NSString).pathExtension.lowercased()) {
            throw .invalidRequest("\(path): the model's source in Xcode holds no version hashes; give the compiled model the app ships "
                                  + "(Model.momd in the app bundle or the build products), or \(Self.whatToGive)")
        }
        if isDirectory.boolValue, !FileManager.default.fileExists(atPath: file) {
            throw .invalidRequest("\(path): there is no VersionInfo.plist in it (a model that is not versioned compiles to a "
                                  + ".mom without one); \(Self.whatToGive)")
        }
        guard let data = FileManager.default.contents(atPath: file),
              let root = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw .invalidRequest("\(file): not a property list; give the app's compiled model (Model.momd) or its VersionInfo.plist")
        }
        // A compiled .mom is an NSKeyedArchiver archive: a plist too, but of archived objects, not hashes.
        if root["$archiver"] != nil, root["$objects"] != nil {
            throw .invalidRequest("\(file): a compiled model (.mom, an NSKeyedArchiver archive), whose version hashes SeedStore "
                                  + "cannot read; \(Self.whatToGive)")
        }
        if let versions = root["NSManagedObjectModel_VersionHashes"] as? [String: Any] {
            let current = root["NSManagedObjectModel_CurrentVersionName"] as? String
            let name = current ?? (versions.count == 1 ? versions.keys.first : nil)
            guard let name, let entities = versions[name] as? [String: Any] else {
                throw .invalidRequest("\(file): the hashes of the current version\(current.map { " (\($0))" } ?? "") are not there; the versions it holds: \(versions.keys.sorted().joined(separator: ", "))")
            }
            try self.init(entities: entities, file: file, versionName: name)
        } else {
            try self.init(entities: root, file: file, versionName: nil)
        }
    }

    /// What to give instead of a file the hashes cannot be read from.
    static let whatToGive = "give the VersionInfo.plist of a versioned model's .momd (Editor > Add Model Version in Xcode makes the "
        + "model versioned), or a plist of entityVersionHashesByName written on a Mac: PropertyListSerialization.data(fromPropertyList: "
        + "NSManagedObjectModel(contentsOf: momURL)!.entityVersionHashesByName, format: .xml, options: 0)"

    /// What keeps these hashes from being `model`'s: entities without a hash, hashes of entities the
    /// model lacks (`no hash for Author; hashes for entities the model lacks: Shelf`); `nil` when they fit.
    ///
    /// For example:
    ///
    /// ```swift
    /// if let problem = hashes.mismatch(with: model) { print(problem) }
    /// ```
    public func mismatch(with model: ObjectModel) -> String? {
        let mine = Set(model.entities.map(\.name)), theirs = Set(hashes.keys)
        guard mine != theirs else { return nil }
        let missing = mine.subtracting(theirs).sorted(), extra = theirs.subtracting(mine).sorted()
        return [missing.isEmpty ? nil : "no hash for \(missing.joined(separator: ", "))",
                extra.isEmpty ? nil : "hashes for entities the model lacks: \(extra.joined(separator: ", "))"]
            .compactMap { $0 }.joined(separator: "; ")
    }

    private init(entities: [String: Any], file: String, versionName: String?) throws(StoreError) {
        var hashes: [String: Data] = [:]
        for (name, value) in entities {
            guard let hash = value as? Data else {
                throw .invalidRequest("\(file): '\(name)' is not an entity's hash (data); the file should map entity names to their version hashes")
            }
            // Core Data's entity version hashes are SHA-256 digests: anything else is not from a compiled model.
            guard hash.count == 32 else {
                throw .invalidRequest("\(file): the hash of '\(name)' is \(hash.count) bytes, not the 32 of Core Data's entity version hashes; "
                                      + "give the VersionInfo.plist of the app's compiled model (Model.momd)")
            }
            hashes[name] = hash
        }
        guard !hashes.isEmpty else { throw .invalidRequest("\(file): it holds no entity hashes") }
        self.init(hashes: hashes, versionName: versionName)
    }
}

extension PersistentStore {
    /// Core Data's metadata keys for model compatibility.
    public enum CoreDataMetadataKey {
        /// The entities' version hashes Core Data compares with its model's.
        public static let versionHashes = "NSStoreModelVersionHashes"
        /// The version of the hash format: 3, as Core Data writes it.
        public static let versionHashesVersion = "NSStoreModelVersionHashesVersion"
        /// The model's version identifiers (hints only).
        public static let versionIdentifiers = "NSStoreModelVersionIdentifiers"
        /// SeedStore's own: the name of the model version the hashes came from (`App 2`), when the file
        /// named one.
        public static let versionName = "SeedStoreCoreDataModelVersion"
    }

    /// The entities the store carries Core Data's version hashes for, and the model version they came from
    /// when recorded; `nil` when it carries none, and Core Data will not open it.
    ///
    /// For example:
    ///
    /// ```swift
    /// if store.coreDataVersionHashes == nil { print("Core Data will not open this store") }
    /// ```
    public var coreDataVersionHashes: (entities: [String], versionName: String?)? {
        guard let hashes = metadata[CoreDataMetadataKey.versionHashes] as? [String: Any], !hashes.isEmpty else { return nil }
        return (hashes.keys.sorted(), metadata[CoreDataMetadataKey.versionName] as? String)
    }

    /// Writes Core Data's entity version hashes into the store's metadata (`NSStoreModelVersionHashes`,
    /// with `NSStoreModelVersionHashesVersion` 3), so that Core Data opens the store with the model they
    /// came from. The entities must be the store's own, every one.
    ///
    /// For example:
    ///
    /// ```swift
    /// try store.writeCoreDataVersionHashes(try CoreDataVersionHashes(contentsOf: "App.app/Model.momd"))
    /// ```
    ///
    /// - Throws: ``StoreError/invalidRequest(_:)`` when the entities differ from the model's, naming them.
    public func writeCoreDataVersionHashes(_ hashes: CoreDataVersionHashes) throws(StoreError) {
        if let problem = hashes.mismatch(with: model) {
            throw .invalidRequest("""
                the Core Data version hashes\(hashes.versionName.map { " (model version \($0))" } ?? "") are not for this model: \
                \(problem). Give the compiled model of the same version as the model imported with
                """)
        }
        var updated = metadata
        updated[CoreDataMetadataKey.versionHashes] = hashes.hashes
        updated[CoreDataMetadataKey.versionHashesVersion] = 3
        updated[CoreDataMetadataKey.versionIdentifiers] = [""]
        updated[CoreDataMetadataKey.versionName] = hashes.versionName
        do {
            let plist = try PropertyListSerialization.data(fromPropertyList: updated, format: .binary, options: 0)
            try connection.execute("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = (SELECT min(Z_VERSION) FROM Z_METADATA)",
                                   [.blob(Array(plist))])
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .invalidRequest("the metadata cannot be written: \(error)")
        }
        metadata = updated
    }
}
