/// One index of a store: its name, its table, what it serves and the statement that creates it.
///
/// For example:
///
/// ```swift
/// let uwi = store.indexes().first { $0.label == "Well.uwi" }!
/// uwi.name    // "ZWELL_ZUWI_INDEX"
/// uwi.table   // "ZWELL"
/// ```
public struct StoreIndex: Sendable, Hashable {
    /// The index's name, as Core Data names it (`ZWELL_ZUWI_INDEX`).
    public let name: String
    /// The table it indexes (`ZWELL`, or a join table such as `Z_1TAGS`).
    public let table: String
    /// What it serves, for messages: `Entity.property`, or a join table's name.
    public let label: String
    /// Its `CREATE INDEX IF NOT EXISTS` statement.
    public let sql: String
}
