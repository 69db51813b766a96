import PhotoFilerSystem

/// Why the gallery could not start, with the fix.
public enum ServerError: Error, Sendable, CustomStringConvertible {
    case badAddress(String)
    case cannotListen(address: String, errno: Errno)
    case cannotWatch(SystemError)

    public var description: String {
        switch self {
        case .badAddress(let text):
            return
                "'\(text)' is not an address to listen on; give ADDR:PORT with an IPv4 address or localhost, e.g. 127.0.0.1:8765."
        case .cannotListen(let address, let errno):
            return
                "The gallery cannot listen on \(address) (\(errno)); pick another port with --listen ADDR:PORT, or stop what is using it."
        case .cannotWatch(let error):
            return
                "The gallery cannot watch the catalog for changes (\(error)); raise fs.inotify.max_user_instances."
        }
    }
}

/// Where the gallery listens: an IPv4 address and a port (0: a free one).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// Host byte order.
    public var ipv4: UInt32
    public var port: UInt16

    public static let defaultGallery = ListenAddress(ipv4: 0x7F00_0001, port: 8765)

    public init(ipv4: UInt32, port: UInt16) {
        self.ipv4 = ipv4
        self.port = port
    }

    /// `ADDR:PORT`, ADDR a dotted IPv4 address or `localhost`.
    public init(parsing text: String) throws(ServerError) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw .badAddress(text)
        }
        let host = text[..<colon]
        if host == "localhost" {
            ipv4 = 0x7F00_0001
        } else {
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { throw .badAddress(text) }
            var value: UInt32 = 0
            for part in parts {
                guard part.count <= 3, let byte = UInt8(part) else { throw .badAddress(text) }
                value = value << 8 | UInt32(byte)
            }
            ipv4 = value
        }
        self.port = port
    }

    /// 127.0.0.0/8: only this machine can connect.
    public var isLoopback: Bool { ipv4 >> 24 == 127 }
    /// 0.0.0.0: every address of this machine.
    public var isWildcard: Bool { ipv4 == 0 }

    public var host: String {
        "\(ipv4 >> 24).\(ipv4 >> 16 & 0xFF).\(ipv4 >> 8 & 0xFF).\(ipv4 & 0xFF)"
    }

    public var description: String { "\(host):\(port)" }
}
