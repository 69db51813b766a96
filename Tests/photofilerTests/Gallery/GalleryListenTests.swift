import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// `serve --listen`: IPv6 literals, and `localhost` (the default's shape) on both loopbacks.
@Suite struct GalleryListenTests {
    @Test func localhostIsBothLoopbacksOnOnePort() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root, arguments: ["--listen", "localhost:0"])
        let printed = String(decoding: server.process.stdoutBytes(), as: UTF8.self)
        #expect(printed.hasPrefix("http://127.0.0.1:\(server.port)/"), "the address names IPv4: \(printed)")
        for (ipv6, host) in [
            (false, "127.0.0.1:\(server.port)"), (true, "[::1]:\(server.port)"),
            (true, "localhost:\(server.port)"),
        ] {
            let reply = try HTTPReply.exchange(
                port: server.port, method: "GET", path: "/api/albums", headers: ["Host": host], body: [],
                ipv6: ipv6)
            #expect(reply.status == 200, "over IPv\(ipv6 ? 6 : 4) with Host \(host)")
        }
        // DNS rebinding over IPv6 is refused as over IPv4.
        let foreign = try HTTPReply.exchange(
            port: server.port, method: "GET", path: "/api/albums",
            headers: ["Host": "evil.example:\(server.port)"],
            body: [], ipv6: true)
        #expect(foreign.status == 403)
    }

    @Test func anIPv6LiteralIsThatAddressOnly() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root, arguments: ["--listen", "[::1]:0"])
        let printed = String(decoding: server.process.stdoutBytes(), as: UTF8.self)
        #expect(printed.hasPrefix("http://[::1]:\(server.port)/"), "\(printed)")
        let reply = try HTTPReply.exchange(
            port: server.port, method: "GET", path: "/api/assets?limit=1",
            headers: ["Host": "[::1]:\(server.port)"], body: [], ipv6: true)
        #expect(reply.status == 200)
        #expect(reply.header("content-type")?.hasPrefix("application/json") == true)
        #expect(throws: HTTPReply.HTTPFailure.self, "nothing listens on IPv4") {
            try LoopbackSocket(port: server.port)
        }
    }

    @Test func aPortInUseIsOneSentenceWithTheSystemsReason() throws {
        let library = try GalleryAPITests.library(count: 1)
        let first = try GalleryProcess(library: library.root, arguments: ["--listen", "127.0.0.1:0"])
        let result = try library.run("serve", "--listen", "127.0.0.1:\(first.port)")
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "libmicrohttpd's own line is not printed: \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("photofiler: error: The gallery cannot listen on 127.0.0.1:\(first.port)")
                && result.stderr.contains("(Address already in use)")
                && result.stderr.contains("pick another port with --listen"),
            "\(result.stderr)")
    }

    /// The gallery whose listener could not start is gone while its watch of the
    /// catalog's folder may still fire (another process writing the catalog): it
    /// exits with its sentence, never a crash (the old code aborted on an unowned
    /// reference in about one run of two under writes).
    @Test func aPortInUseWhileTheCatalogIsWrittenIsNoCrash() throws {
        let library = try GalleryAPITests.library(count: 1)
        let first = try GalleryProcess(library: library.root, arguments: ["--listen", "127.0.0.1:0"])
        let writing = Atomic<Bool>(true)
        let scratch = library.root.appending(".photofiler").appending("scratch")
        let writer = Thread {
            var round = 0
            while writing.load(ordering: .relaxed) {
                try? writeFile(scratch, Array("\(round)".utf8))
                round += 1
            }
        }
        writer.start()
        defer { writing.store(false, ordering: .relaxed) }
        for run in 0..<12 {
            let result = try library.run("serve", "--listen", "127.0.0.1:\(first.port)")
            #expect(result.status == 1, "run \(run): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "run \(run): \(result.stderr)")
        }
    }

    @Test func aBadListenAddressIsAUsageError() throws {
        let library = try TestLibrary()
        for bad in ["::1:8765", "[::1]", "[nope]:80"] {
            let result = try library.run("serve", "--listen", bad)
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.contains("IPv6 address in brackets"), "\(result.stderr)")
        }
    }
}
