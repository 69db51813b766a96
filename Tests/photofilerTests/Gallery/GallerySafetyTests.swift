import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// The safety rules of `photofiler serve`: Host, tokens, writes, ids only, bounds, headers.
@Suite struct GallerySafetyTests {
    @Test func everyResponseCarriesTheSecurityHeaders() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        for path in ["/", "/api/albums", "/api/assets/999", "/static/gallery.js", "/api/assets/1/thumbnail"] {
            let reply = try server.request("GET", path)
            let policy = try #require(reply.header("content-security-policy"), "\(path)")
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(policy.contains("default-src 'none'"))
            #expect(reply.header("x-content-type-options") == "nosniff")
            #expect(reply.header("referrer-policy") == "no-referrer")
        }
    }

    @Test func aForeignHostIsRefused() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let port = server.port
        for host in [
            "evil.example", "evil.example:\(port)", "127.0.0.1.nip.io:\(port)", "127.0.0.1:\(port &+ 1)", "",
        ] {
            let reply = try server.request("GET", "/api/albums", headers: ["Host": host])
            #expect(reply.status == 403, "Host: \(host)")
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "127.0.0.1"] {
            #expect(
                try server.request("GET", "/api/albums", headers: ["Host": host]).status == 200,
                "Host: \(host)")
        }
        // HTTP/1.0 without any Host.
        let bare = try HTTPReply.exchange(
            port: port, method: "GET", path: "/", headers: [:], body: [],
            rawHead: "GET /api/albums HTTP/1.0\r\n\r\n")
        #expect(bare.status == 403 || bare.status == 400)
        // Two Hosts, the listener's first.
        let twice = try HTTPReply.exchange(
            port: port, method: "GET", path: "/", headers: [:], body: [],
            rawHead: "GET /api/albums HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: evil.example\r\n"
                + "Connection: close\r\n\r\n")
        #expect(twice.status == 400)
    }

    @Test(arguments: [
        "/api/assets/../../../../etc/passwd", "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2F..%2F..%2Fetc%2Fpasswd", "/albums/..%2F..%2F..%2Fetc", "/assets/..%2F..%2Fetc%2Fpasswd",
        "/api/assets/1/../../../../etc/passwd", "/api/assets/1%2F..%2F..%2Fetc%2Fpasswd/original",
        "//etc/passwd", "/api/assets/%00/original", "/Roll/", "/.photofiler/catalog.sqlite",
    ])
    func noRequestBecomesAPath(_ path: String) throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let reply = try server.request("GET", path)
        #expect(reply.status == 404 || reply.status == 400, "\(path): \(reply.status)")
        #expect(!reply.text.contains("root:"))
        #expect(!reply.body.starts(with: Array("SQLite format".utf8)))
    }

    /// A NUL ends the C strings libmicrohttpd hands on: decoded, `1%00x` would be asset 1.
    @Test func anEncodedNULNamesNothing() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let id = try #require(try library.list().compactMap(assetID).first)
        #expect(try server.request("GET", "/api/assets/\(id)").status == 200)
        for path in [
            "/api/assets/\(id)%00x", "/api/assets/\(id)%00/original", "/api/assets?album=Trip%00x",
            "/albums/Trip%00x", "/static/gallery.js%00.png",
        ] {
            #expect([400, 404].contains(try server.request("GET", path).status), "\(path)")
        }
        #expect(try server.request("GET", "/api/assets?album=Trip").status == 200)
    }

    @Test func writesNeedTheWriteTokenHeader() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let id = try #require(try library.list().first.flatMap(assetID))
        #expect(try server.request("PUT", "/api/assets/\(id)/favorite").status == 403)
        #expect(
            try server.request("PUT", "/api/assets/\(id)/favorite", headers: ["X-PhotoFiler-Token": "guess"])
                .status == 401)
        #expect(try library.info(BytePath(String(id)))["favorite"] as? Bool == false)
        // A body is refused before it is read, however small.
        let token = try #require(metaToken(try server.request("GET", "/").text))
        let withBody = try server.request(
            "PUT", "/api/assets/\(id)/favorite", headers: ["X-PhotoFiler-Token": token],
            body: Array("{}".utf8))
        #expect(withBody.status == 413)
        #expect(try server.request("PATCH", "/api/assets/\(id)/favorite").status == 405)
    }

    @Test func headersAreBounded() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let reply = try server.request(
            "GET", "/api/albums", headers: ["X-Padding": String(repeating: "a", count: 64 * 1024)])
        #expect([413, 431].contains(reply.status), "\(reply.status)")
        // The server is still there for the next one.
        #expect(try server.request("GET", "/api/albums").status == 200)
    }

    /// A browser opens an event stream on every page and drops it on the next. On a
    /// quiet library no event ever reaches a dropped stream, so the server must see
    /// the client leave by itself, or the streams one address may hold run out.
    @Test func eventStreamsLeftByTheirClientsFreeTheirConnections() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        for round in 1...100 {
            let opened = try Self.streamServed(port: server.port, within: 10)
            #expect(opened, "stream \(round) was not served")
            if !opened { break }
        }
        #expect(try server.request("GET", "/api/albums").status == 200)
    }

    /// Opens an event stream and closes it; true once one was served within `seconds`.
    /// A 429 means the server has not seen an earlier client leave yet (a busy machine
    /// runs its thread late): the stream is asked for again until it has.
    static func streamServed(port: UInt16, within seconds: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let stream = try EventStreamReader(port: port)
            _ = try stream.wait(timeout: max(deadline.timeIntervalSinceNow, 0)) {
                $0.contains(/id: [0-9]+\n\n/) || $0.hasPrefix("HTTP/1.1 429")
            }
            if stream.received.contains(/id: [0-9]+\n\n/) { return true }
        } while Date() < deadline
        return false
    }

    /// A token with characters a query gives a meaning to (`+` is a space there) is
    /// printed percent-encoded, so the printed link opens the gallery.
    @Test func thePrintedLinkCarriesATokenOfAnyCharacters() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = "a+b&c#d=e%41"
        let server = try GalleryProcess(
            library: library.root, arguments: ["--listen", "127.0.0.1:0", "--token", token])
        #expect(server.token == token)
        let line = String(decoding: server.process.stdoutBytes(), as: UTF8.self).prefix { $0 != "\n" }
        let start = try #require(line.range(of: "/?token="))
        let path = String(line[start.lowerBound...])
        let opened = try server.request("GET", path)
        #expect(opened.onward == "/", "\(line)")
    }

    @Test func withATokenEveryRequestNeedsIt() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(
            library: library.root, arguments: ["--listen", "127.0.0.1:0", "--token", "s3cret-token"])
        #expect(server.token == "s3cret-token", "the printed address carries the token")
        let id = try #require(try library.list().first.flatMap(assetID))
        for path in [
            "/", "/api/albums", "/api/assets/\(id)", "/api/assets/\(id)/thumbnail", "/static/gallery.js",
        ] {
            #expect(try server.request("GET", path).status == 401, "\(path)")
        }
        #expect(try server.request("GET", "/api/albums?token=wrong").status == 401)
        // A page refused is told why as a page; the API in JSON.
        let page = try server.request("GET", "/albums/Trip")
        #expect(page.header("content-type")?.hasPrefix("text/html") == true)
        #expect(page.text.contains("needs its token") && page.text.contains("expires or is revoked"))
        #expect(
            try server.request("GET", "/api/albums").header("content-type")?.hasPrefix("application/json")
                == true)
        // The token leaves the address at once; the cookie is a session of this browser's, not the token.
        let first = try server.request("GET", "/?token=s3cret-token")
        #expect(first.onward == "/")
        let cookie = try #require(first.setCookie.first { $0.hasPrefix("photofiler-token-\(server.port)=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(!cookie.contains("s3cret-token"))
        let pair = String(cookie.split(separator: ";")[0])
        #expect(try server.request("GET", "/api/albums", headers: ["Cookie": pair]).status == 200)
        let home = try server.request("GET", "/", headers: ["Cookie": pair])
        #expect(home.status == 200 && home.setCookie.isEmpty, "a session is kept, not renewed")
        #expect(
            try server.request("GET", "/api/albums", headers: ["X-PhotoFiler-Token": "s3cret-token"]).status
                == 200)
        // The page carries the token for its own writes; the cookie alone does not write.
        #expect(metaToken(home.text) == "s3cret-token")
        #expect(
            try server.request("PUT", "/api/assets/\(id)/favorite", headers: ["Cookie": pair]).status == 403)
        #expect(
            try server.request(
                "PUT", "/api/assets/\(id)/favorite", headers: ["X-PhotoFiler-Token": "s3cret-token"]
            )
            .status == 204)
    }

    @Test func anotherAddressThanLoopbackMakesAndNeedsAToken() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root, arguments: ["--listen", "0.0.0.0:0"])
        let token = try #require(server.token, "a token is made and printed")
        #expect(token.count >= 32)
        #expect(try server.request("GET", "/api/albums").status == 401)
        #expect(try server.request("GET", "/api/albums?token=\(token)").status == 200)
        // On the wildcard address an IP literal or the machine's name is its own; another name is not.
        #expect(
            try server.request(
                "GET", "/api/albums?token=\(token)", headers: ["Host": "rebind.example:\(server.port)"]
            ).status == 403)
    }

    @Test func aBadListenAddressIsAUsageError() throws {
        let library = try TestLibrary()
        for address in ["8765", "localhost", "300.1.1.1:80", "127.0.0.1:99999", "example.com:80"] {
            let result = try library.run("serve", "--listen", address)
            #expect(result.status == 2, "\(address): \(result.stderr)")
        }
    }
}
