import Foundation

/// The one JSON encoding of what the command line and the gallery print, so both
/// show the same objects.
public enum JSONText {
    /// Sorted keys, slashes unescaped; indented for a terminal, compact for the wire.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        return Array(try encoder.encode(value))
    }
}
