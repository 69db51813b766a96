import PhotoFilerSystem

/// One IP address a listener binds.
public enum ListenHost: Sendable, Equatable {
    /// Host byte order.
    case ipv4(UInt32)
    /// 16 bytes, network order.
    case ipv6([UInt8])

    public static let loopbackIPv4 = ListenHost.ipv4(0x7F00_0001)
    public static let loopbackIPv6 = ListenHost.ipv6(Array(repeating: 0, count: 15) + [1])

    /// A literal as a URL or a `Host` header writes it: dotted IPv4, or IPv6 in brackets.
    public init?(literal text: Substring) {
        if text.hasPrefix("[") && text.hasSuffix("]") {
            guard let bytes = Sys.ipv6Address(String(text.dropFirst().dropLast())) else { return nil }
            self = .ipv6(bytes)
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard part.count <= 3, part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        self = .ipv4(value)
    }

    /// 127.0.0.0/8 or ::1: only this machine can connect.
    public var isLoopback: Bool {
        switch self {
        case .ipv4(let value): return value >> 24 == 127
        case .ipv6: return self == .loopbackIPv6
        }
    }

    /// 0.0.0.0 or ::, every address of this machine.
    public var isWildcard: Bool {
        switch self {
        case .ipv4(let value): return value == 0
        case .ipv6(let bytes): return bytes.allSatisfy { $0 == 0 }
        }
    }

    /// As a URL names it: `127.0.0.1`, `[::1]`.
    public var literal: String {
        switch self {
        case .ipv4(let value):
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        case .ipv6(let bytes): return "[\(Sys.ipv6Text(bytes))]"
        }
    }
}

/// Where the gallery listens: one port on one address, or on both loopback
/// addresses (`localhost`, and the default): 127.0.0.1, named in the printed
/// address, and ::1 beside it, so a client that resolves `localhost` to either
/// family finds the gallery. Port 0 asks for a free one (the same on both).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The first is the one the printed address names; any others are bound beside it
    /// where this machine has that family (no IPv6 at all is not an error).
    public var hosts: [ListenHost]
    public var port: UInt16

    /// The default, 127.0.0.1:8765, with [::1]:8765 beside it.
    public static let defaultGallery = ListenAddress(localhostPort: 8765)

    public init(host: ListenHost, port: UInt16) {
        hosts = [host]
        self.port = port
    }

    public init(ipv4: UInt32, port: UInt16) {
        self.init(host: .ipv4(ipv4), port: port)
    }

    /// Both loopback addresses.
    public init(localhostPort port: UInt16) {
        hosts = [.loopbackIPv4, .loopbackIPv6]
        self.port = port
    }

    /// `ADDR:PORT`: ADDR a dotted IPv4 address, an IPv6 address in brackets
    /// (`[::1]:8765`), or `localhost` (both loopback addresses).
    public init(parsing text: String) throws(ServerError) {
        guard let colon = text.lastIndex(of: ":"),
            text[text.index(after: colon)...].allSatisfy(\.isASCII),
            let port = UInt16(text[text.index(after: colon)...])
        else {
            throw .badAddress(text)
        }
        let host = text[..<colon]
        if host == "localhost" {
            self.init(localhostPort: port)
        } else if let parsed = ListenHost(literal: host) {
            self.init(host: parsed, port: port)
        } else {
            throw .badAddress(text)
        }
    }

    /// Only this machine can connect, on every address bound.
    public var isLoopback: Bool { hosts.allSatisfy(\.isLoopback) }
    /// Some address bound is every address of this machine.
    public var isWildcard: Bool { hosts.contains(where: \.isWildcard) }

    /// The address a URL names: the first host's literal.
    public var host: String { hosts[0].literal }

    public var description: String { hosts.map { "\($0.literal):\(port)" }.joined(separator: " and ") }
}
