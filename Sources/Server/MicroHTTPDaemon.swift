import CMicroHTTPD
import Dispatch
import Glibc
import PhotoFilerSystem

/// What the bridge calls for every request; runs on one of libmicrohttpd's pool threads.
public protocol HTTPHandler: AnyObject, Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}

/// The limits a gallery holds every client to (`serve`'s options; the man page
/// gives the defaults and why).
public struct HTTPLimits: Sendable, Equatable {
    /// Worker threads of each listener, each with its own epoll set.
    public var threads: UInt32 = 4
    /// Open connections in all.
    public var connections: UInt32 = 128
    /// Open connections from one address, the owner's aside.
    public var connectionsPerAddress: UInt32 = 16
    /// Seconds anyone but the owner has to send a whole request head, from
    /// connecting and from each answer.
    public var headSeconds: UInt32 = 5
    /// Event streams from one address, the owner's aside, and through one share.
    public var eventStreamsPerAddress: UInt32 = 8
    public var eventStreamsPerShare: UInt32 = 16
    /// Bytes one connection may hold, request line and headers included; a request
    /// whose headers do not fit is refused by libmicrohttpd (431).
    public var connectionMemory: Int = 32 * 1024
    /// An idle keep-alive connection of the owner's is closed after this (parked
    /// event streams are exempt).
    public var idleSeconds: UInt32 = 60

    public init() {}
}

/// libmicrohttpd 0.9.75 as the gallery uses it: its own polling thread and a pool
/// of epoll threads, suspend/resume for event streams, files sent with sendfile.
/// Its own messages ("Failed to bind to port …", "Server reached connection limit")
/// are debug lines of the product's log: a command says its one sentence alone.
///
/// `@unchecked Sendable`: the daemon handle is written once in `init` and only
/// passed to libmicrohttpd afterwards, which is thread-safe for these calls.
public final class MicroHTTPDaemon: @unchecked Sendable {
    private var daemon: OpaquePointer?
    private let handler: any HTTPHandler
    fileprivate let log: Logger
    fileprivate let clients: ConnectionGuard
    /// The port it listens on (the kernel's choice when asked for 0).
    public private(set) var port: UInt16 = 0

    /// Starts listening on `host` and `port`; the handler must outlive the daemon (it is
    /// not retained by C). `clients` counts the connections of every listener of one gallery.
    public init(
        host: ListenHost, port: UInt16, handler: any HTTPHandler, log: Logger, clients: ConnectionGuard
    ) throws(ServerError) {
        self.handler = handler
        self.log = log
        self.clients = clients
        let limits = clients.limits
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        // libmicrohttpd shares its limit out among the pool's threads, and a connection
        // ended for another's sake holds its slot until its thread closes it: room for
        // both in any one thread; the guard's count is the one that holds.
        let cLimits = photofiler_mhd_limits(
            thread_pool_size: limits.threads, connection_limit: 2 * limits.connections * limits.threads,
            connection_memory: limits.connectionMemory, timeout_seconds: limits.idleSeconds)
        let context = Unmanaged.passUnretained(self).toOpaque()
        switch host {
        case .ipv4(let value):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr.s_addr = value.bigEndian
            daemon = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    photofiler_mhd_start(
                        UInt32(flags), $0, port, microHTTPDAccess, context, microHTTPDCompleted,
                        microHTTPDLog, microHTTPDAcceptPolicy, microHTTPDConnectionNotice, cLimits)
                }
            }
        case .ipv6(let bytes):
            // IPv6 only (libmicrohttpd sets IPV6_V6ONLY), but `[::]` takes IPv4 clients as well.
            flags |= MHD_USE_IPv6.rawValue | (host.isWildcard ? MHD_USE_DUAL_STACK.rawValue : 0)
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: bytes) }
            daemon = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    photofiler_mhd_start(
                        UInt32(flags), $0, port, microHTTPDAccess, context, microHTTPDCompleted,
                        microHTTPDLog, microHTTPDAcceptPolicy, microHTTPDConnectionNotice, cLimits)
                }
            }
        }
        guard let daemon else {
            throw .cannotListen(address: "\(host.literal):\(port)", errno: Errno.current)
        }
        self.port = photofiler_mhd_bound_port(daemon)
    }

    fileprivate func handle(
        _ connection: OpaquePointer, url: String, method: String,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        let headers = Self.collect(connection, .HEADER_KIND, lowercased: true)
        let request = HTTPRequest(
            method: method, path: url, query: Self.collect(connection, .GET_ARGUMENT_KIND).values,
            headers: headers.values, repeatedHeaders: headers.repeated,
            cookies: Self.collect(connection, .COOKIE_KIND).values)
        var response = handler.respond(to: request)
        clients.answered(connection, as: response.standing)
        if case .stream(let body) = response.body, !clients.mayStream(connection) {
            body.closed()
            let standing = response.standing
            response = .error(
                429,
                "Too many event streams from this address or through this share; close a page and reload.")
            response.standing = standing
        }
        if response.standing == .anonymous, response.status >= 400 {
            // Nothing useful came of it: the slot goes back at once.
            response.addHeader("Connection", "close")
        }
        if let afterSent = response.afterSent, let requestContext {
            // Replaces the `headersSeen` mark.
            // Kept with the request; `microHTTPDCompleted` runs and releases it.
            requestContext.pointee = Unmanaged.passRetained(CompletionBox(afterSent)).toOpaque()
        }
        return queue(response, on: connection)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes {
                MHD_create_response_from_buffer(
                    $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let fd, let offset, let length):
            made = MHD_create_response_from_fd_at_offset64(UInt64(length), fd.rawValue, UInt64(offset))
            if made == nil { fd.close() }
        case .stream(let body):
            let stream = StreamContext(connection: connection, body: body)
            let context = Unmanaged.passRetained(stream).toOpaque()
            made = MHD_create_response_from_callback(
                UInt64.max, 4096, microHTTPDStreamRead, context, microHTTPDStreamFree)
            if made == nil {
                // Never served: its departure watch goes, and the body learns it is closed.
                Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue().finish()
            } else {
                body.attach(wake: stream.wake)
            }
        }
        guard let made else { return MHD_Result.NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, response.status, made)
    }

    /// Every value of one kind, by key (the first of repeated keys), and the keys repeated.
    private static func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool = false)
        -> ValueBox
    {
        let collected = ValueBox(lowercased: lowercased)
        let context = Unmanaged.passUnretained(collected).toOpaque()
        _ = MHD_get_connection_values(connection, kind, microHTTPDCollect, context)
        return collected
    }
}

/// Collects key/value pairs from `MHD_get_connection_values` on the calling thread.
private final class ValueBox {
    var values: [String: String] = [:]
    var repeated: Set<String> = []
    let lowercased: Bool
    init(lowercased: Bool) { self.lowercased = lowercased }
}

/// What runs once a response has gone out.
private final class CompletionBox {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// One streamed response's connection and body.
///
/// libmicrohttpd does not poll a suspended connection, so a client that left while
/// its stream was parked kept its connection slot until the next event reached it:
/// a browser that opened and closed pages filled every slot of a quiet library and
/// the gallery answered no one. A read source on a duplicate of the socket sees the
/// client leave (its end of file, or bytes, which an event stream's client never
/// sends): the connection is resumed and ended at once.
///
/// `@unchecked Sendable`: `connection` is only passed to `MHD_suspend_connection`
/// (from libmicrohttpd's own read callback, under the body's lock) and
/// `MHD_resume_connection` (safe at any time for a suspended connection); `parked`,
/// `left` and `finished` are guarded by `lock`, a wake-up resumes only a parked
/// connection, and none does once libmicrohttpd has freed the stream (`finish`).
/// `departure` is set in `init` and only cancelled afterwards.
private final class StreamContext: @unchecked Sendable {
    let connection: OpaquePointer
    let body: StreamingBody
    private let lock = ThreadLock()
    private var parked = false
    private var left = false
    private var finished = false
    private var departure: (any DispatchSourceRead)?

    /// Where every stream's departure watch runs; nothing runs while no client leaves.
    private static let departures = DispatchQueue(label: "photofiler.gallery.departures")

    init(connection: OpaquePointer, body: StreamingBody) {
        self.connection = connection
        self.body = body
        departure = watchForDeparture()
    }

    /// Nil when the socket cannot be watched (no descriptor left): the stream then
    /// still works, and its slot is freed by the next event it is sent, as before.
    private func watchForDeparture() -> (any DispatchSourceRead)? {
        let socket: FileDescriptor
        do {
            socket = try Sys.duplicate(photofiler_mhd_connection_socket(connection))
        } catch {
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: socket.rawValue, queue: Self.departures)
        source.setEventHandler { @Sendable [weak self] in
            guard Sys.peek(socket) != .nothing else { return }
            self?.clientLeft()
        }
        source.setCancelHandler { socket.close() }
        source.resume()
        return source
    }

    private func clientLeft() {
        departure?.cancel()
        lock.withLock {
            left = true
            guard parked, !finished else { return }
            parked = false
            MHD_resume_connection(connection)
        }
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, limit: Int) -> Int {
        // MHD_CONTENT_READER_END_OF_STREAM: the connection then reads the end of file and closes.
        if lock.withLock({ left }) { return -1 }
        let chunk = body.next(limit: limit) {
            lock.withLock {
                MHD_suspend_connection(connection)
                // Left between the check above and now: resumed at once, to be ended.
                if left { MHD_resume_connection(connection) } else { parked = true }
            }
        }
        switch chunk {
        case .bytes(let bytes):
            let count = min(bytes.count, limit)
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress!, byteCount: count)
            }
            return count
        case .wait: return 0
        case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM
        }
    }

    var wake: @Sendable () -> Void {
        { [self] in
            lock.withLock {
                guard parked, !finished else { return }
                parked = false
                MHD_resume_connection(connection)
            }
        }
    }

    /// libmicrohttpd has freed the response: no resume from now on.
    func finish() {
        lock.withLock {
            finished = true
            parked = false
        }
        departure?.cancel()
        body.closed()
    }
}

/// A pthread mutex: the one lock the bridge needs, without Foundation.
///
/// `@unchecked Sendable`: the mutex is heap-allocated once and only used through
/// pthread calls, which are thread-safe.
final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

// MARK: C callbacks (plain function pointers; the context pointer carries the Swift object)

/// Marks a request whose headers have been seen: libmicrohttpd calls the handler
/// again once the request is complete, and answering then keeps the connection alive.
// nonisolated(unsafe): an address compared for identity only; nothing reads or writes through it.
nonisolated(unsafe) private let headersSeen = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

/// One message of libmicrohttpd's, formatted from its `printf` format and arguments.
private let microHTTPDLog: MHD_LogCallback = { context, format, arguments in
    guard let context, let format, let arguments else { return }
    let daemon = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    guard daemon.log.isEnabled(.debug) else { return }
    var line = [UInt8](repeating: 0, count: 512)
    line.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
            _ = vsnprintf($0.baseAddress, $0.count, format, arguments)
        }
    }
    var text = line.prefix { $0 != 0 }
    while text.last == UInt8(ascii: "\n") { text = text.dropLast() }
    daemon.log.debug("libmicrohttpd: " + String(decoding: text, as: UTF8.self))
}

private let microHTTPDAccess: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, _, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let requestContext else { return MHD_Result.NO }
    let daemon = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    if requestContext.pointee == nil {
        requestContext.pointee = headersSeen
        daemon.clients.headArrived(connection)
        // A request with a body is answered (refused) from its headers, before the body is read.
        let hasBody =
            MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map {
                String(cString: $0) != "0"
            }
            ?? false || MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
        if !hasBody { return MHD_Result.YES }
    } else if let uploadSize, uploadSize.pointee != 0 {
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    return daemon.handle(
        connection, url: String(cString: url), method: String(cString: method), requestContext: requestContext
    )
}

private let microHTTPDCompleted: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
    if let context, let connection {
        Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue().clients.completed(connection)
    }
    guard let requestContext, let box = requestContext.pointee else { return }
    requestContext.pointee = nil
    if box == headersSeen { return }
    Unmanaged<CompletionBox>.fromOpaque(box).takeRetainedValue().run()
}

private let microHTTPDCollect: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return MHD_Result.YES }
    let box = Unmanaged<ValueBox>.fromOpaque(context).takeUnretainedValue()
    var name = String(cString: key)
    if box.lowercased { name = name.lowercased() }
    if box.values[name] == nil {
        box.values[name] = value.map { String(cString: $0) } ?? ""
    } else {
        box.repeated.insert(name)
    }
    return MHD_Result.YES
}

private let microHTTPDStreamRead: MHD_ContentReaderCallback = { context, _, buffer, limit in
    guard let context, let buffer else { return -2 }
    let stream = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue()
    return stream.read(into: buffer, limit: limit)
}

private let microHTTPDStreamFree: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue().finish()
}

/// Whether a client from this address may connect now (the guard may end another for it).
private let microHTTPDAcceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
    guard let context else { return MHD_Result.NO }
    let daemon = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(photofiler_mhd_address_bytes(address, &bytes))
    return daemon.clients.mayAccept(Array(bytes.prefix(count))) ? MHD_Result.YES : MHD_Result.NO
}

/// A connection began or ended (the end before libmicrohttpd closes its socket).
private let microHTTPDConnectionNotice: MHD_NotifyConnectionCallback = { context, connection, _, notice in
    guard let context, let connection else { return }
    let daemon = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    if notice == .CONNECTION_NOTIFY_STARTED {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = Int(photofiler_mhd_connection_address(connection, &bytes))
        daemon.clients.started(
            connection, address: Array(bytes.prefix(count)),
            socket: photofiler_mhd_connection_socket(connection))
    } else {
        daemon.clients.closed(connection)
    }
}
