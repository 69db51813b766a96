import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport

/// A `photofiler serve` (or `pick`) started by a test on a free port: the test
/// waits for the address line on stdout, never for a fixed time.
final class GalleryProcess {
    let process: Spawned
    /// `http://127.0.0.1:PORT` (no trailing slash).
    let base: String
    let port: UInt16
    /// The `?token=` of the printed address, if any.
    let token: String?

    init(
        library: BytePath, command: String = "serve", arguments: [String] = ["--listen", "127.0.0.1:0"],
        environment: [String: String] = [:]
    ) throws {
        process = try Spawned(
            arguments: ([command, "--library", library.display] + arguments).map { BytePath($0) },
            environment: environment)
        let line = try GalleryProcess.waitForLine(process, timeout: 30)
        guard let url = URLComponents(string: line), let port = url.port else {
            throw GalleryFailure.noAddress(line)
        }
        self.port = UInt16(port)
        base = "http://\(url.host ?? "127.0.0.1"):\(port)"
        token = url.queryItems?.first { $0.name == "token" }?.value
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.wait(timeout: 10)
    }

    enum GalleryFailure: Error { case noAddress(String) }

    /// The first line on stdout.
    static func waitForLine(_ process: Spawned, timeout: Double) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let out = String(decoding: process.stdoutBytes(), as: UTF8.self)
            if let newline = out.firstIndex(of: "\n") { return String(out[..<newline]) }
            if process.wait(timeout: 0) != nil { break }
            usleep(10_000)
        }
        throw GalleryFailure.noAddress("no line on stdout; stderr: \(process.stderrText())")
    }

    func request(
        _ method: String = "GET", _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> HTTPReply {
        var all = ["Host": "127.0.0.1:\(port)"]
        for (name, value) in headers { all[name] = value }
        return try HTTPReply.exchange(port: port, method: method, path: path, headers: all, body: body)
    }

    /// GET as JSON (any).
    func json(_ path: String, headers: [String: String] = [:]) throws -> (HTTPReply, Any?) {
        let reply = try request("GET", path, headers: headers)
        return (
            reply, try? JSONSerialization.jsonObject(with: Data(reply.body), options: [.fragmentsAllowed])
        )
    }
}

/// One HTTP/1.1 exchange over a fresh loopback connection (`Connection: close`),
/// written by hand so a test can send what a browser never would (a foreign Host,
/// `..` in the path, an oversized header).
struct HTTPReply {
    var status: Int
    /// Header fields by lowercased name (the last of repeated ones); `setCookie` keeps all of those.
    var headers: [String: String]
    var setCookie: [String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Where a page that moves on at once (a page asked for with `?token=`) leads: its
    /// refresh's address, when the answer is 200 and nothing else.
    var onward: String? {
        guard status == 200, let start = text.range(of: "http-equiv=\"refresh\" content=\"0; url="),
            let end = text[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return text[start.upperBound..<end].replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `NAME=VALUE` of the cookie named so that the reply sets, for a `Cookie` header.
    func cookie(_ name: String) -> String? {
        setCookie.first { $0.hasPrefix(name + "=") }.map { String($0.split(separator: ";")[0]) }
    }

    static func exchange(
        port: UInt16, method: String, path: String, headers: [String: String], body: [UInt8],
        rawHead: String? = nil, ipv6: Bool = false
    ) throws -> HTTPReply {
        let socket = try LoopbackSocket(port: port, ipv6: ipv6)
        defer { socket.close() }
        var head = rawHead ?? "\(method) \(path) HTTP/1.1\r\n"
        if rawHead == nil {
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
            head += "Connection: close\r\n\r\n"
        }
        try socket.send(Array(head.utf8) + body)
        let raw = try socket.readToEnd(timeout: 30)
        return try parse(raw)
    }

    static func parse(_ raw: [UInt8]) throws -> HTTPReply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = raw.firstRange(of: separator) else { throw HTTPFailure.malformed(raw.count) }
        let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw HTTPFailure.malformed(raw.count)
        }
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
            if name == "set-cookie" { cookies.append(value) }
        }
        var body = Array(raw[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return HTTPReply(status: status, headers: headers, setCookie: cookies, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            result += bytes[start..<min(start + size, bytes.count)]
            index = start + size + 2
        }
        return result
    }

    enum HTTPFailure: Error { case malformed(Int), connect(Int32), timeout }
}

/// A TCP connection to 127.0.0.1, or to ::1.
final class LoopbackSocket {
    let fd: Int32

    /// `from`: the IPv4 loopback address to connect from (127.0.0.2 is another client than 127.0.0.1).
    init(port: UInt16, ipv6: Bool = false, from source: UInt32? = nil) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let source, !ipv6 {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = source.bigEndian
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if connected != 0 {
            let error = errno
            Glibc.close(fd)
            throw HTTPReply.HTTPFailure.connect(error)
        }
    }

    func close() { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return }  // the server may refuse before reading everything
            sent += count
        }
    }

    /// Reads whatever arrives within `timeout` seconds; nil at the end of the stream.
    func read(timeout: Double) throws -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { return nil }
        return Array(buffer[..<count])
    }

    func readToEnd(timeout: Double) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        var all: [UInt8] = []
        while Date() < deadline {
            guard let chunk = try read(timeout: 0.5) else { return all }
            all += chunk
        }
        throw HTTPReply.HTTPFailure.timeout
    }
}

/// An open `/api/events` stream, read as it comes.
final class EventStreamReader {
    let socket: LoopbackSocket
    private(set) var received = ""

    init(
        port: UInt16, path: String = "/api/events", headers: [String: String] = [:],
        from source: UInt32? = nil
    ) throws {
        socket = try LoopbackSocket(port: port, from: source)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try socket.send(Array((head + "\r\n").utf8))
    }

    deinit { socket.close() }

    /// Waits until what arrived so far satisfies `condition`; false on timeout or end of stream.
    func wait(timeout: Double, until condition: (String) -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(received) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            guard let chunk = try socket.read(timeout: min(left, 0.5)) else { return condition(received) }
            received += String(decoding: chunk, as: UTF8.self)
        }
        return true
    }
}
