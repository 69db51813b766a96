import Foundation
import Glibc

/// `photofiler serve` on the large library: one page of an album through the API.
enum GalleryBench {
    /// `GET /api/assets?album=QQ&limit=100`, each on a fresh loopback connection:
    /// the median of 21 after 3 warm-ups, seconds.
    static func assetsPage(root: String, work: String, photofiler: String) throws -> Double {
        let log = "\(work)/gallery-log"
        let child = try Child(photofiler, ["serve", "--library", root, "--listen", "127.0.0.1:0"], log: log)
        defer { child.stop() }
        let port = try waitForPort(log: log, alive: { child.isRunning })
        let path = "/api/assets?album=\(LargeLibrary.album)&limit=100"
        var times: [Double] = []
        for round in 0..<24 {
            let start = now()
            let body = try get(port: port, path: path)
            let seconds = now() - start
            guard body.contains("\"next\":\"") else {
                throw BenchFailure("the gallery answered \(path) without a next page: \(body.prefix(200))")
            }
            if round >= 3 { times.append(seconds) }
        }
        return times.sorted()[times.count / 2]
    }

    /// The port of the address `serve` prints first.
    private static func waitForPort(log: String, alive: () -> Bool) throws -> UInt16 {
        let deadline = now() + 60
        while now() < deadline && alive() {
            if let text = try? String(contentsOfFile: log, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("http://") }),
                let port = URLComponents(string: String(line))?.port
            {
                return UInt16(port)
            }
            usleep(10_000)
        }
        throw BenchFailure("photofiler serve printed no address; see \(log)")
    }

    /// One HTTP/1.1 GET with `Connection: close`; the whole response as text.
    private static func get(port: UInt16, path: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchFailure("connect to the gallery failed") }
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }
}
