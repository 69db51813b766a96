import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// The gallery against clients that mean it harm, from this machine or the LAN
/// (loopback addresses stand for both): held slots, the picker's token, paths and
/// activity a share could read, the token in the address bar, symbolic links.
@Suite struct GalleryHostileClientTests {
    static let loopback: UInt32 = 0x7F00_0001

    /// One request on a connection of its own, answered within `timeout` seconds.
    static func request(
        _ server: GalleryProcess, _ path: String, headers: [String: String] = [:], timeout: Double = 5
    ) throws -> HTTPReply {
        let socket = try LoopbackSocket(port: server.port)
        defer { socket.close() }
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try socket.send(Array((head + "\r\n").utf8))
        return try HTTPReply.parse(try socket.readToEnd(timeout: timeout))
    }

    /// Seconds until the server ends `socket` while `feed` is sent to it every 0.3 s; nil after `limit`.
    static func secondsUntilDropped(_ socket: LoopbackSocket, feeding feed: String?, limit: Double) throws
        -> Double?
    {
        let start = Date()
        while Date().timeIntervalSince(start) < limit {
            if let feed { try socket.send(Array(feed.utf8)) }
            guard try socket.read(timeout: 0.3) != nil else { return Date().timeIntervalSince(start) }
        }
        return nil
    }

    @Test func theOwnerGetsInWhileOthersHoldEverySlot() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(
            library: library.root,
            arguments: [
                "--listen", "127.0.0.1:0", "--token", "owner-token", "--connections", "24",
                "--connections-per-address", "8", "--head-timeout", "3",
            ])
        let owner = try #require(
            try server.request("GET", "/?token=owner-token").cookie("photofiler-token-\(server.port)"))
        // More than every limit, from the owner's own address and three others, each
        // trickling a request head a line at a time.
        var holders: [LoopbackSocket] = []
        defer { for socket in holders { socket.close() } }
        for index in 0..<40 {
            let socket = try LoopbackSocket(port: server.port, from: Self.loopback + UInt32(index % 4))
            try socket.send(Array("GET /api/albums HTTP/1.1\r\n".utf8))
            holders.append(socket)
        }
        for round in 0..<3 {
            for socket in holders { try socket.send(Array("X-Round-\(round): 1\r\n".utf8)) }
            #expect(try Self.request(server, "/api/albums", headers: ["Cookie": owner]).status == 200)
            #expect(
                try Self.request(server, "/api/albums", headers: ["X-PhotoFiler-Token": "owner-token"]).status
                    == 200)
        }
    }

    @Test func aTrickledHeadAndASilentConnectionAreDroppedWithinSeconds() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(
            library: library.root, arguments: ["--listen", "127.0.0.1:0", "--head-timeout", "2"])
        let trickling = try LoopbackSocket(port: server.port)
        defer { trickling.close() }
        try trickling.send(Array("GET /api/albums HTTP/1.1\r\n".utf8))
        let trickled = try #require(try Self.secondsUntilDropped(trickling, feeding: "X-A: b\r\n", limit: 10))
        #expect(trickled >= 1.5 && trickled < 4, "a whole head within 2 s, however the bytes trickle")
        let silent = try LoopbackSocket(port: server.port)
        defer { silent.close() }
        let waited = try #require(try Self.secondsUntilDropped(silent, feeding: nil, limit: 10))
        #expect(waited < 4)
        // A refused request gives its slot back at once.
        let refused = try LoopbackSocket(port: server.port)
        defer { refused.close() }
        try refused.send(Array("GET /api/albums HTTP/1.1\r\nHost: rebind.example\r\n\r\n".utf8))
        let reply = try HTTPReply.parse(try refused.readToEnd(timeout: 2))
        #expect(reply.status == 403)
    }

    @Test func eventStreamsAreCappedPerAddressAndPerShare() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(
            library: library.root,
            arguments: [
                "--listen", "127.0.0.1:0", "--streams-per-address", "2", "--streams-per-share", "3",
            ])
        func opened(_ stream: EventStreamReader) throws -> Bool {
            try stream.wait(timeout: 5) { $0.contains("id: ") || $0.contains(" 429 ") }
                && stream.received.contains("id: ")
        }
        // One at a time: each is answered before the next asks.
        func open(_ count: Int, headers: [String: String] = [:], from: (Int) -> UInt32) throws -> [Bool] {
            var streams: [EventStreamReader] = []
            return try (0..<count).map { index in
                let stream = try EventStreamReader(port: server.port, headers: headers, from: from(index))
                streams.append(stream)
                let answered = try opened(stream)
                #expect(answered || stream.received.hasPrefix("HTTP/1.1 429"), "\(stream.received)")
                return answered
            }
        }
        let other = Self.loopback + 1
        #expect(try open(3) { _ in other } == [true, true, false])
        // The owner's page session is not counted against its address.
        let session = try #require(
            try server.request("GET", "/").cookie("photofiler-token-\(server.port)"))
        #expect(try open(3, headers: ["Cookie": session]) { _ in other } == [true, true, true])
        // A share's streams from as many addresses as it likes: three in all.
        let visitors = try open(4, headers: ["X-PhotoFiler-Token": token]) { Self.loopback + 2 + UInt32($0) }
        #expect(visitors == [true, true, true, false])
    }

    @Test func thePickersTokenIsOnNoCommandLineAndInNoLog() throws {
        let library = try GalleryAPITests.library(count: 1)
        let folder = try TemporaryFolder()
        let script = folder.file("browser.sh")
        let arguments = folder.file("arguments.txt")
        let opened = folder.file("opened.txt")
        try folder.write(
            "#!/bin/sh\nprintf '%s' \"$*\" > '\(arguments.display)'\n"
                + "printf '%s' \"$1\" > '\(opened.display).tmp' && mv '\(opened.display).tmp' '\(opened.display)'\n",
            to: script)
        _ = chmod(script.display, 0o755)
        let process = try Spawned(
            arguments: ["pick", "--library", library.root.display].map { BytePath($0) },
            environment: [
                "BROWSER": script.display, "DISPLAY": "", "XDG_CURRENT_DESKTOP": "",
                "XDG_RUNTIME_DIR": folder.path.display,
            ])
        let url = try PickCommandTests.waitForAddress(opened, process: process)
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        let door = BytePath(bytes: try readFile(opened))
        #expect(door.display.hasPrefix(folder.path.display + "/photofiler-pick-"))
        #expect(try Sys.status(door).mode & 0o777 == 0o600, "the user's alone")
        let given = String(decoding: try readFile(arguments), as: UTF8.self)
        #expect(!given.contains(token), "the browser's command line: \(given)")
        #expect(!process.stderrText().contains(token), "the log: \(process.stderrText())")
        let reply = try HTTPReply.exchange(
            port: UInt16(try #require(url.port)), method: "POST", path: "/api/pick/cancel",
            headers: ["Host": "127.0.0.1:\(url.port ?? 0)", "X-PhotoFiler-Token": token], body: [])
        #expect(reply.status == 204)
        #expect(process.wait(timeout: 10) == 1)
        #expect(try Sys.statusIfExists(door) == nil, "gone with the picker")
    }

    @Test func aShareAnswersWithoutTheOwnersPaths() throws {
        let library = try GalleryAPITests.library(count: 2)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let auth = ["X-PhotoFiler-Token": token]
        let id = try #require(try library.list("--album", "Trip").compactMap(assetID).first)
        for path in ["/api/albums", "/api/assets", "/api/assets/\(id)"] {
            let reply = try server.request("GET", path, headers: auth)
            #expect(reply.status == 200)
            #expect(!reply.text.contains(library.root.display), "\(path): \(reply.text)")
        }
        let (_, asset) = try server.json("/api/assets/\(id)", headers: auth)
        let object = try #require(asset as? [String: Any])
        #expect(object["path"] as? String == "/api/assets/\(id)/original")
        #expect(object["thumbnail"] as? String == "/api/assets/\(id)/thumbnail")
        let (_, albums) = try server.json("/api/albums", headers: auth)
        let album = try #require((albums as? [[String: Any]])?.first)
        #expect(album["path"] is NSNull)
        let cover = try #require(album["cover"] as? Int)
        #expect(album["coverThumbnail"] as? String == "/api/assets/\(cover)/thumbnail")
        #expect(try server.request("GET", "/api/assets/\(id)/thumbnail", headers: auth).status == 200)
        // The owner still sees where the files are.
        let (_, own) = try server.json("/api/assets/\(id)")
        let filed = try library.info(BytePath(String(id)))["path"] as? String
        #expect((own as? [String: Any])?["path"] as? String == filed)
    }

    @Test func aSharesEventIdsSayNothingOfTheRestOfTheLibrary() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let auth = ["X-PhotoFiler-Token": token]
        func ids(_ received: String) -> [String] {
            received.split(whereSeparator: \.isNewline).compactMap {
                $0.hasPrefix("id: ") ? String($0.dropFirst(4)) : nil
            }
        }
        let first = try EventStreamReader(port: server.port, headers: auth)
        #expect(try first.wait(timeout: 5) { !ids($0).isEmpty })
        let opening = try #require(ids(first.received).first)
        #expect(opening.count == 32 && Int64(opening) == nil, "no sequence number: \(opening)")
        let owner = try EventStreamReader(port: server.port)
        #expect(try owner.wait(timeout: 5) { !ids($0).isEmpty })
        // Three changes elsewhere, then one in the shared album.
        for index in 0..<3 {
            _ = try library.save(
                [
                    try library.input(
                        bytes: Pictures.uniqueJPEG(60 + index, tag: "elsewhere"),
                        name: BytePath("w\(index).jpg"))
                ],
                album: "Work")
        }
        let mine = try #require(
            try library.save(
                [try library.input(bytes: Pictures.uniqueJPEG(70, tag: "mine"), name: "m.jpg")], album: "Trip"
            ).first)
        #expect(try first.wait(timeout: 5) { $0.contains("{\"id\": \(mine)}") })
        #expect(ids(first.received).allSatisfy { $0.count == 32 && Int64($0) == nil })
        #expect(try owner.wait(timeout: 5) { $0.contains("{\"id\": \(mine)}") })
        #expect(ids(owner.received).allSatisfy { Int64($0) != nil }, "the owner's stream numbers its changes")
        // A reconnect with the share's own id is sent what it missed; a library sequence number is reset.
        let back = try EventStreamReader(
            port: server.port, headers: auth.merging(["Last-Event-ID": opening]) { $1 })
        #expect(try back.wait(timeout: 5) { $0.contains("{\"id\": \(mine)}") })
        #expect(!back.received.contains("event: reset"))
        let forged = try EventStreamReader(
            port: server.port, headers: auth.merging(["Last-Event-ID": "1"]) { $1 })
        #expect(try forged.wait(timeout: 5) { $0.contains("event: reset") })
    }

    @Test func aTokenInTheAddressIsRedirectedAwayAndLeaveShareIsGuarded() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(
            library: library.root, arguments: ["--listen", "127.0.0.1:0", "--token", "owner-token"])
        let link = try server.request("GET", "/albums/Trip?media=image&token=\(token)")
        #expect(link.onward == "/albums/Trip?media=image" && link.header("location") == nil)
        let visitor = try #require(link.cookie("photofiler-share-\(server.port)"))
        #expect(!visitor.contains(token))
        // Another site's page cannot drop the visitor's share: no token, no answer.
        let anonymous = try server.request("GET", "/leave-share")
        #expect(anonymous.status == 401 && anonymous.setCookie.isEmpty)
        let rebound = try server.request(
            "GET", "/leave-share", headers: ["Host": "rebind.example:\(server.port)", "Cookie": visitor])
        #expect(rebound.status == 403 && rebound.setCookie.isEmpty)
        let leave = try server.request("GET", "/leave-share", headers: ["Cookie": visitor])
        #expect(leave.status == 303 && leave.setCookie.contains { $0.contains("Max-Age=0") })
    }

    @Test func aSymlinkedFolderInsideTheLibraryServesNothing() throws {
        let library = try GalleryAPITests.library(count: 1)
        let id = try #require(try library.list("--album", "Trip").compactMap(assetID).first)
        let server = try GalleryProcess(library: library.root)
        #expect(try server.request("GET", "/api/assets/\(id)/thumbnail").status == 200)
        let info = try library.info(BytePath(String(id)))
        let elsewhere = try TemporaryFolder()
        // Each folder swapped for a link to where it went: the same names, reached through a link.
        for key in ["path", "thumbnail"] {
            let file = BytePath(try #require(info[key] as? String, "\(key)"))
            let folder = file.parent
            let moved = elsewhere.path.appending(key)
            #expect(rename(folder.display, moved.display) == 0)
            #expect(symlink(moved.display, folder.display) == 0)
        }
        #expect(try server.request("GET", "/api/assets/\(id)/original").status == 404)
        let thumbnail = try server.request("GET", "/api/assets/\(id)/thumbnail")
        #expect(thumbnail.status != 200, "\(thumbnail.status)")
    }
}
