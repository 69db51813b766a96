import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem
import TestSupport
import Testing

/// The token of a new `share ALBUM` link.
func shareToken(_ library: TestLibrary, album: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
    -> String
{
    let link = try library.run("share", album).stdout
    return try #require(
        URLComponents(string: link.trimmingCharacters(in: .whitespacesAndNewlines))?
            .queryItems?.first { $0.name == "token" }?.value, sourceLocation: sourceLocation)
}

/// `photofiler share`: a token that sees one album only, read-only, until revoked.
@Suite struct GalleryShareTests {
    @Test func aShareSeesItsAlbumOnly() throws {
        let library = try GalleryAPITests.library(count: 3)
        let shared = try library.run("share", "Trip", "--expires", "7")
        try #require(shared.status == 0, "\(shared.stderr)")
        let link = try #require(
            URLComponents(string: shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(link.path == "/albums/Trip")
        #expect(link.port == 8765)
        let token = try #require(link.queryItems?.first { $0.name == "token" }?.value)
        // Kept hashed: the token itself is nowhere in the catalog.
        let catalogBytes =
            try readFile(library.catalog)
            + ((try? readFile(BytePath(library.catalog.display + "-wal"))) ?? [])
        #expect(catalogBytes.firstRange(of: Array(token.utf8)) == nil)

        let server = try GalleryProcess(library: library.root)
        let auth = ["X-PhotoFiler-Token": token]
        let trip = try library.list("--album", "Trip").compactMap(assetID)
        let work = try library.list("--album", "Work").compactMap(assetID)

        let opened = try server.request("GET", "/albums/Trip?token=\(token)")
        #expect(opened.onward == "/albums/Trip")
        let page = try server.request("GET", "/albums/Trip", headers: auth)
        #expect(page.status == 200)
        #expect(metaToken(page.text) == "", "a share's pages carry no write token")
        let (_, albums) = try server.json("/api/albums", headers: auth)
        #expect((albums as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Trip"])
        let (_, all) = try server.json("/api/assets", headers: auth)
        let listed = ((all as? [String: Any])?["assets"] as? [[String: Any]])?.compactMap(assetID)
        #expect(listed.map(Set.init) == Set(trip))
        #expect(try server.json("/api/assets?album=Trip", headers: auth).0.status == 200)
        #expect(try server.json("/api/timeline", headers: auth).0.status == 200)
        for path in [
            "/api/assets?album=Work", "/api/assets?album=Recently%20Added", "/api/timeline?album=Work",
        ] {
            #expect(try server.request("GET", path, headers: auth).status == 404, "\(path)")
        }
        for id in work {
            for suffix in ["", "/thumbnail", "/original"] {
                #expect(try server.request("GET", "/api/assets/\(id)\(suffix)", headers: auth).status == 404)
            }
            #expect(try server.request("GET", "/assets/\(id)", headers: auth).status == 404)
        }
        for id in trip {
            for suffix in ["", "/thumbnail", "/original"] {
                #expect(try server.request("GET", "/api/assets/\(id)\(suffix)", headers: auth).status == 200)
            }
            #expect(try server.request("PUT", "/api/assets/\(id)/favorite", headers: auth).status == 403)
        }
        #expect(try server.request("GET", "/albums/Work", headers: auth).status == 404)

        // --list shows it by id; --revoke ends it at once.
        let list = try library.run("share", "--list", "--json")
        let entries = try #require(try list.json() as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["album"] as? String == "Trip")
        #expect(entries.first?["expires"] is String)
        #expect(try library.run("share", "--revoke", token).status == 0)
        #expect(try server.request("GET", "/api/albums", headers: auth).status == 401)
        #expect(try server.request("GET", "/api/assets/\(trip[0])/original", headers: auth).status == 401)
        #expect(try library.run("share", "--revoke", token).status == 1)
    }

    /// A share link opened in the owner's browser sets a cookie of its own: the
    /// gallery's cookie still opens everything, and `/leave-share` drops the
    /// share's, so a loopback gallery without a token is whole again.
    @Test func theOwnerWhoOpensAShareLinkKeepsTheGallery() throws {
        let library = try GalleryAPITests.library(count: 3)
        let shared = try library.run("share", "Trip")
        try #require(shared.status == 0, "\(shared.stderr)")
        let link = try #require(
            URLComponents(string: shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let token = try #require(link.queryItems?.first { $0.name == "token" }?.value)
        func names(_ reply: (HTTPReply, Any?)) -> [String] {
            (reply.1 as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        }

        let server = try GalleryProcess(library: library.root)
        let page = try server.request("GET", "/albums/Trip?token=\(token)")
        let shareCookie = "photofiler-share-\(server.port)"
        let session = try #require(page.cookie(shareCookie), "\(page.setCookie)")
        #expect(!session.contains(token), "a session, not the share's token")
        #expect(!page.setCookie.contains { $0.hasPrefix("photofiler-token-") }, "\(page.setCookie)")
        let withShare = ["Cookie": session]
        #expect(names(try server.json("/api/albums", headers: withShare)) == ["Trip"])
        let leave = try server.request("GET", "/leave-share", headers: withShare)
        #expect(leave.status == 303 && leave.header("location") == "/")
        #expect(leave.setCookie.contains { $0.hasPrefix("\(shareCookie)=;") && $0.contains("Max-Age=0") })
        #expect(names(try server.json("/api/albums")).count > 1, "no cookie: the whole loopback gallery")

        let guarded = try GalleryProcess(
            library: library.root, arguments: ["--listen", "127.0.0.1:0", "--token", "owner-s3cret"])
        let owner = try #require(
            try guarded.request("GET", "/?token=owner-s3cret").cookie("photofiler-token-\(guarded.port)"))
        let visitor = try #require(
            try guarded.request("GET", "/albums/Trip?token=\(token)").cookie(
                "photofiler-share-\(guarded.port)"))
        let both = ["Cookie": owner + "; " + visitor]
        #expect(names(try guarded.json("/api/albums", headers: both)).count > 1, "the owner's cookie wins")
        #expect(names(try guarded.json("/api/albums", headers: ["Cookie": visitor])) == ["Trip"])
        // A cookie that carries a token instead of a session opens nothing.
        let raw = ["Cookie": "photofiler-share-\(guarded.port)=\(token)"]
        #expect(try guarded.request("GET", "/api/albums", headers: raw).status == 401)
    }

    @Test func aShareNamesNoOtherAlbumOfItsAssets() throws {
        let library = try GalleryAPITests.library(count: 1)
        let bytes = Pictures.uniqueJPEG(5, tag: "in-both")
        let id = try #require(
            try library.save([try library.input(bytes: bytes, name: "b.jpg")], album: "Trip").first)
        #expect(try library.save([try library.input(bytes: bytes, name: "b2.jpg")], album: "Work") == [id])
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)

        let (_, own) = try server.json("/api/assets/\(id)")
        #expect(((own as? [String: Any])?["albums"] as? [String]).map(Set.init) == ["Trip", "Work"])
        let auth = ["X-PhotoFiler-Token": token]
        let (_, shared) = try server.json("/api/assets/\(id)", headers: auth)
        #expect((shared as? [String: Any])?["albums"] as? [String] == ["Trip"])
        let (_, listed) = try server.json("/api/assets", headers: auth)
        let objects = ((listed as? [String: Any])?["assets"] as? [[String: Any]]) ?? []
        #expect(!objects.isEmpty && objects.allSatisfy { $0["albums"] as? [String] == ["Trip"] })

        // The inbox it came from is named after the album it feeds (here `save`, the command):
        // told to a share only when that is its album.
        #expect((own as? [String: Any])?["sourceInbox"] as? String == "save")
        #expect((shared as? [String: Any])?["sourceInbox"] == nil, "\(shared ?? "none")")
        let work = try shareToken(library, album: "Work")
        let (_, seenFromWork) = try server.json("/api/assets/\(id)", headers: ["X-PhotoFiler-Token": work])
        #expect((seenFromWork as? [String: Any])?["albums"] as? [String] == ["Work"])
        #expect((seenFromWork as? [String: Any])?["sourceInbox"] == nil, "\(seenFromWork ?? "none")")
    }

    @Test func aShareIsRevokedByItsListedID() throws {
        let library = try GalleryAPITests.library(count: 1)
        #expect(try library.run("share", "Work").status == 0)
        let listed = try #require(try library.run("share", "--list", "--json").json() as? [[String: Any]])
        let id = try #require(listed.first?["id"] as? String)
        #expect(listed.first?["expires"] is NSNull)
        #expect(try library.run("share", "--revoke", id).status == 0)
        #expect(try library.run("share", "--list").stdout.isEmpty)
    }

    @Test func onlyUserAlbumsAreShared() throws {
        let library = try GalleryAPITests.library(count: 1)
        #expect(try library.run("share", "Nowhere").status == 1)
        #expect(try library.run("share", "Favorites").status == 1)
        #expect(try library.run("share").status == 2)
        #expect(try library.run("share", "Trip", "--expires", "0").status == 2)
    }
}

/// `/api/events`: changes by any process reach an open stream within 2 s.
@Suite struct GalleryEventTests {
    @Test func filedChangedAndDeletedArriveWithinTwoSeconds() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let stream = try EventStreamReader(port: server.port)
        #expect(try stream.wait(timeout: 10) { $0.contains("text/event-stream") && $0.contains("\r\n\r\n") })

        // Each change is committed before its command exits; the event follows within 2 s of that.
        let file = try library.input(bytes: Pictures.uniqueJPEG(99, tag: "event"), name: "new.jpg")
        let id = try #require(try library.save([file], album: "Trip").first)
        var committed = Date()
        #expect(try stream.wait(timeout: 5) { $0.contains("event: filed\ndata: {\"id\": \(id)}") })
        #expect(Date().timeIntervalSince(committed) < 2)

        // Filing it into its album was one change, told by `filed`; the favorite is the next.
        let changed = "event: changed\ndata: {\"id\": \(id)}"
        #expect(!stream.received.contains(changed))
        #expect(try library.run("favorite", String(id)).status == 0)
        committed = Date()
        #expect(try stream.wait(timeout: 5) { $0.contains(changed) })
        #expect(Date().timeIntervalSince(committed) < 2)

        #expect(try library.run("rm", String(id)).status == 0)
        committed = Date()
        #expect(try stream.wait(timeout: 5) { $0.contains("event: deleted\ndata: {\"id\": \(id)}") })
        #expect(Date().timeIntervalSince(committed) < 2)
    }

    @Test func aShareHearsOfItsOwnAlbumOnly() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let stream = try EventStreamReader(port: server.port, headers: ["X-PhotoFiler-Token": token])
        let other = try library.save(
            [try library.input(bytes: Pictures.uniqueJPEG(1, tag: "other"), name: "o.jpg")], album: "Work")
        let mine = try library.save(
            [try library.input(bytes: Pictures.uniqueJPEG(2, tag: "mine"), name: "m.jpg")], album: "Trip")
        #expect(try stream.wait(timeout: 5) { $0.contains("{\"id\": \(mine[0])}") })
        #expect(!stream.received.contains("{\"id\": \(other[0])}"))
    }

    /// The chunked body's last chunk: the server ended the stream.
    static func ended(_ received: String) -> Bool { received.hasSuffix("\r\n0\r\n\r\n") }

    @Test func aRevokedShareStreamEndsAtOnce() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let stream = try EventStreamReader(port: server.port, headers: ["X-PhotoFiler-Token": token])
        #expect(try stream.wait(timeout: 10) { $0.contains(/id: [0-9a-f]+\n\n/) })
        #expect(try library.run("share", "--revoke", token).status == 0)
        #expect(try stream.wait(timeout: 5, until: Self.ended), "\(stream.received)")
    }

    /// An expiry comes with no write to the catalog: the stream ends at it all the same.
    @Test func anExpiredShareStreamEnds() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = "expires-soon-token"
        let catalog = try Catalog(path: library.catalog)
        let trip = try #require(try catalog.albums().first { $0.name == "Trip" })
        let now = Date().timeIntervalSince1970
        try catalog.insertShare(
            ShareRecord(
                tokenHash: AccessToken.hash(token), album: trip.id, createdAt: now, expiresAt: now + 2))
        let server = try GalleryProcess(library: library.root)
        let stream = try EventStreamReader(port: server.port, headers: ["X-PhotoFiler-Token": token])
        #expect(try stream.wait(timeout: 10) { $0.contains(/id: [0-9a-f]+\n\n/) })
        #expect(try stream.wait(timeout: 10, until: Self.ended), "\(stream.received)")
        #expect(Date().timeIntervalSince1970 >= now + 2, "not before its expiry")
        #expect(
            try server.request("GET", "/api/albums", headers: ["X-PhotoFiler-Token": token]).status == 401)
    }
}

/// `photofiler pick`: the browser is whatever `$BROWSER` names (xdg-open honours it).
@Suite struct PickCommandTests {
    /// A `$BROWSER` that writes the address it was given to a file.
    static func fakeBrowser(in folder: TemporaryFolder) throws -> (script: BytePath, opened: BytePath) {
        let script = folder.file("browser.sh")
        let opened = folder.file("opened.txt")
        try folder.write(
            "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.display).tmp' && mv '\(opened.display).tmp' '\(opened.display)'\n",
            to: script)
        _ = chmod(script.display, 0o755)
        return (script, opened)
    }

    /// The picker's address, from the private file the browser was given (its path is
    /// all the browser's command line shows).
    static func waitForAddress(_ opened: BytePath, process: Spawned) throws -> URLComponents {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let given = try? readFile(opened), let page = try? readFile(BytePath(bytes: given)),
                let url = doorAddress(String(decoding: page, as: UTF8.self))
            {
                return url
            }
            if process.wait(timeout: 0) != nil { break }
            usleep(10_000)
        }
        throw GalleryProcess.GalleryFailure.noAddress("the browser was not opened: \(process.stderrText())")
    }

    /// The address a picker's file leads to (its refresh's `url=`).
    static func doorAddress(_ page: String) -> URLComponents? {
        guard let start = page.range(of: "url="), let end = page[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return URLComponents(
            string: page[start.upperBound..<end].replacingOccurrences(of: "&amp;", with: "&"))
    }

    func start(_ library: TestLibrary, _ extra: [String]) throws -> (Spawned, UInt16, String, TemporaryFolder)
    {
        let folder = try TemporaryFolder()
        let (script, opened) = try Self.fakeBrowser(in: folder)
        let process = try Spawned(
            arguments: (["pick", "--library", library.root.display] + extra).map { BytePath($0) },
            environment: [
                "BROWSER": script.display, "DISPLAY": "", "XDG_CURRENT_DESKTOP": "",
                "XDG_RUNTIME_DIR": folder.path.display,
            ])
        let url = try Self.waitForAddress(opened, process: process)
        #expect(url.path == "/pick")
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        return (process, UInt16(try #require(url.port)), token, folder)
    }

    @Test func printsThePickedRollPathsAndEnds() throws {
        let library = try GalleryAPITests.library(count: 3)
        let (process, port, token, _) = try start(
            library, ["--album", "Trip", "--limit", "2", "--media", "image"])
        func request(_ method: String, _ path: String, _ headers: [String: String] = [:]) throws -> HTTPReply
        {
            try HTTPReply.exchange(
                port: port, method: method, path: path,
                headers: ["Host": "127.0.0.1:\(port)"].merging(headers) { $1 },
                body: [])
        }
        // A private server: nothing without the token.
        #expect(try request("GET", "/pick").status == 401)
        let link = try request("GET", "/pick?token=\(token)")
        #expect(link.onward == "/pick")
        let page = try request(
            "GET", "/pick", ["Cookie": try #require(link.cookie("photofiler-token-\(port)"))])
        #expect(page.status == 200)
        #expect(page.text.contains("data-page=\"pick\"") && page.text.contains("data-limit=\"2\""))
        let trip = try library.list("--album", "Trip")
        let ids = trip.prefix(2).compactMap(assetID)
        let auth = ["X-PhotoFiler-Token": token]
        #expect(
            try request(
                "POST", "/api/pick?ids=\(trip.compactMap(assetID).map(String.init).joined(separator: ","))",
                auth
            ).status == 400, "over the limit")
        let work = try library.list("--album", "Work").compactMap(assetID)
        #expect(
            try request("POST", "/api/pick?ids=\(work[0])", auth).status == 400, "not in the picker's album")
        #expect(try request("POST", "/api/pick?ids=\(ids[0])").status == 401)
        let picked = try request("POST", "/api/pick?ids=\(ids.map(String.init).joined(separator: ","))", auth)
        #expect(picked.status == 204)
        #expect(process.wait(timeout: 10) == 0)
        let lines = String(decoding: process.stdoutBytes(), as: UTF8.self).split(separator: "\n").map(
            String.init)
        #expect(lines == trip.prefix(2).compactMap { $0["path"] as? String })
    }

    @Test func jsonPrintsInfoObjects() throws {
        let library = try GalleryAPITests.library(count: 1)
        let (process, port, token, _) = try start(library, ["--json"])
        let id = try #require(try library.list("--album", "Trip").first.flatMap(assetID))
        let reply = try HTTPReply.exchange(
            port: port, method: "POST", path: "/api/pick?ids=\(id)",
            headers: ["Host": "127.0.0.1:\(port)", "X-PhotoFiler-Token": token], body: [])
        #expect(reply.status == 204)
        #expect(process.wait(timeout: 10) == 0)
        let printed = try JSONSerialization.jsonObject(with: Data(process.stdoutBytes())) as? [[String: Any]]
        #expect(GalleryAPITests.same(printed, [try library.info(BytePath(String(id)))]))
    }

    @Test func cancelExitsOne() throws {
        let library = try GalleryAPITests.library(count: 1)
        let (process, port, token, _) = try start(library, [])
        let reply = try HTTPReply.exchange(
            port: port, method: "POST", path: "/api/pick/cancel",
            headers: ["Host": "127.0.0.1:\(port)", "X-PhotoFiler-Token": token], body: [])
        #expect(reply.status == 204)
        #expect(process.wait(timeout: 10) == 1)
        #expect(process.stdoutBytes().isEmpty)
    }
}
