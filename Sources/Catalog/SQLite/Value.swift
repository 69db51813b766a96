import PhotoFilerSystem

/// A value to bind to a statement parameter.
///
/// An enum rather than a protocol so each call site says which SQLite storage
/// class it means: a path is a `.blob` (arbitrary bytes) and never `.text`.
package enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    package static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    package static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
    package static func path(_ value: BytePath) -> SQLiteValue { .blob(value.bytes) }
    package static func path(_ value: BytePath?) -> SQLiteValue { value.map { .blob($0.bytes) } ?? .null }
    package static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    package static func int(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    package static func real(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
    package static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
