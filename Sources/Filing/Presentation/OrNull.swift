/// A value the JSON shows as `null` when absent: synthesized `Encodable` leaves a nil
/// optional out instead.
public struct OrNull<Value: Encodable & Sendable>: Encodable, Sendable {
    public var value: Value?

    public init(_ value: Value?) { self.value = value }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
