import PhotoFilerSystem

/// One request as the gallery reads it, copied out of libmicrohttpd while its
/// connection is valid. libmicrohttpd has parsed it and percent-decoded the path
/// and the query arguments.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    /// Query arguments by name (the first of repeated ones); an argument without `=` is "".
    public var query: [String: String]
    /// Header fields by lowercased name (the first of repeated ones).
    public var headers: [String: String]
    /// The lowercased names of header fields given more than once.
    public var repeatedHeaders: Set<String>
    public var cookies: [String: String]

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        repeatedHeaders: Set<String> = [], cookies: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.repeatedHeaders = repeatedHeaders
        self.cookies = cookies
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// PUT, DELETE and POST change something; GET and HEAD read.
    public var isWrite: Bool { method != "GET" && method != "HEAD" }
}

/// A response the bridge hands to libmicrohttpd.
public struct HTTPResponse {
    public enum Body {
        case bytes([UInt8])
        /// `length` bytes of an open file from `offset`, sent with sendfile; the
        /// response owns the descriptor and closes it.
        case file(FileDescriptor, offset: Int64, length: Int64)
        /// Written as it comes, of unknown length (Server-Sent Events).
        case stream(StreamingBody)
    }

    public var status: UInt32
    public var headers: [(String, String)]
    public var body: Body
    /// Runs once the response has been sent (the picker ends its server then).
    public var afterSent: (@Sendable () -> Void)?
    /// What the request's credentials showed its client to be (which slots it may keep).
    public var standing: ClientStanding = .anonymous

    public init(status: UInt32, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public mutating func addHeader(_ name: String, _ value: String) { headers.append((name, value)) }
}

/// The next part of a streamed body.
public enum StreamChunk {
    case bytes([UInt8])
    /// Nothing now: the connection is parked until the body calls its wake-up.
    case wait
    case end
}

/// A body written as it comes. The bridge asks for the next chunk whenever the
/// connection can take more; a body with nothing to send parks the connection
/// (no thread, no polling) and wakes it when it has something.
public protocol StreamingBody: AnyObject, Sendable {
    /// The next chunk, at most `limit` bytes. Before answering `.wait` the body
    /// must call `park` while it holds whatever lock guards its queue, so a wake-up
    /// can never come between the answer and the parking.
    func next(limit: Int, park: () -> Void) -> StreamChunk
    /// Called once with the function that un-parks the connection, before the first `next`.
    func attach(wake: @escaping @Sendable () -> Void)
    /// The connection is gone.
    func closed()
}
