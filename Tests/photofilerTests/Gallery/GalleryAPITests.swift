import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler serve`'s API against the command line's own JSON.
@Suite struct GalleryAPITests {
    /// A library of `count` distinct JPEGs in album "Trip" and two in "Work".
    static func library(count: Int = 7) throws -> TestLibrary {
        let library = try TestLibrary()
        var trip: [BytePath] = []
        for index in 0..<count {
            trip.append(
                try library.input(
                    bytes: Pictures.uniqueJPEG(index, tag: "gallery"), name: BytePath("trip\(index).jpg")))
        }
        try library.save(trip, album: "Trip")
        let work = try (0..<2).map { index in
            try library.input(
                bytes: Pictures.uniqueJPEG(index, tag: "work"), name: BytePath("work\(index).jpg"))
        }
        try library.save(work, album: "Work")
        return library
    }

    /// Equal JSON values: both written again with sorted keys, byte for byte.
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        func canonical(_ value: Any?) -> Data? {
            guard let value else { return nil }
            return try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }
        guard let left = canonical(a), let right = canonical(b) else { return false }
        return left == right
    }

    @Test func albumsAreWhatAlbumsJSONPrints() throws {
        let library = try Self.library()
        let server = try GalleryProcess(library: library.root)
        let (reply, json) = try server.json("/api/albums")
        #expect(reply.status == 200)
        #expect(reply.header("content-type") == "application/json; charset=utf-8")
        let cli = try library.run("albums", "--json").json()
        #expect(Self.same(json, cli))
        let names = (json as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.prefix(2) == ["Trip", "Work"])  // user albums first, then smart
    }

    @Test func everyPageFollowsTheCursorAndVisitsEachAssetOnce() throws {
        let library = try Self.library(count: 11)
        let server = try GalleryProcess(library: library.root)
        for (album, sort) in [
            ("Trip", "added"), ("Trip", "created"), (nil, "added"), ("Recently Added", "created"),
        ] {
            var arguments = ["--sort", sort]
            var query = "sort=\(sort)&limit=3"
            if let album {
                arguments += ["--album", album]
                query += "&album=" + album.replacingOccurrences(of: " ", with: "%20")
            }
            let listed = try library.run(bytes: (["list", "--json"] + arguments).map { BytePath($0) })
            let expected = try #require(try listed.json() as? [[String: Any]])
            var seen: [[String: Any]] = []
            var cursor: String? = nil
            var pages = 0
            repeat {
                let (reply, json) = try server.json(
                    "/api/assets?" + query + (cursor.map { "&cursor=" + $0 } ?? ""))
                try #require(reply.status == 200, "\(reply.text)")
                let page = try #require(json as? [String: Any])
                seen += try #require(page["assets"] as? [[String: Any]])
                cursor = page["next"] as? String
                #expect(page.keys.contains("next"))
                pages += 1
            } while cursor != nil && pages < 100
            #expect(seen.count == expected.count, "\(album ?? "all") by \(sort)")
            #expect(Set(seen.compactMap(assetID)).count == seen.count)
            #expect(
                Self.same(seen, expected),
                "\(album ?? "all") by \(sort): the objects are list --json's, in its order")
        }
    }

    @Test func oneAssetIsWhatInfoJSONPrints() throws {
        let library = try Self.library(count: 2)
        let server = try GalleryProcess(library: library.root)
        let first = try #require(try library.list().first.flatMap(assetID))
        let (reply, json) = try server.json("/api/assets/\(first)")
        #expect(reply.status == 200)
        #expect(reply.header("content-type") == "application/json; charset=utf-8")
        let info = try library.info(BytePath(String(first)))
        #expect(Self.same(json, info), "\(String(describing: json)) vs \(info)")
    }

    @Test func theTimelineCountsEachMonthNewestFirst() throws {
        let library = try TestLibrary()
        let files = try ["IMG_20231201_123456.jpg", "mmexport1701428096000.jpg", "sunset.jpg", "harbour.jpg"]
            .map {
                name in
                try library.input(
                    bytes: try readFile(Binary.packageRoot.appending("examples/pictures").appending(name)),
                    name: BytePath(name))
            }
        try library.save(files, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let (reply, json) = try server.json("/api/timeline?album=Trip")
        #expect(reply.status == 200)
        let months = try #require(json as? [[String: Any]])
        let names = months.compactMap { $0["month"] as? String }
        #expect(names == names.sorted(by: >))
        #expect(months.compactMap { $0["count"] as? Int }.reduce(0, +) == 4)
        // Each month's count is what a listing of that month returns, and its `created` is in that month.
        for month in months {
            let name = try #require(month["month"] as? String)
            let (_, page) = try server.json("/api/assets?album=Trip&sort=created&month=\(name)")
            let assets = try #require((page as? [String: Any])?["assets"] as? [[String: Any]])
            #expect(assets.count == month["count"] as? Int)
            #expect(assets.allSatisfy { ($0["created"] as? String)?.hasPrefix(name) == true })
        }
    }

    @Test func filtersNarrowTheListing() throws {
        let library = try Self.library(count: 3)
        let server = try GalleryProcess(library: library.root)
        func count(_ query: String) throws -> Int? {
            let (_, json) = try server.json("/api/assets?" + query)
            return ((json as? [String: Any])?["assets"] as? [Any])?.count
        }
        #expect(try count("album=Trip&media=image") == 3)
        #expect(try count("album=Trip&media=video") == 0)
        #expect(try count("album=Trip&media=live") == 0)
        #expect(try count("album=Trip&name=TRIP1") == 1)
        #expect(try count("name=work") == 2)
        #expect(try count("from=1900-01-01&to=2999-12-31") == 5)
        #expect(try count("to=1900-01-01") == 0)
    }

    /// The search by name folds case by Unicode's rules, as the page does live:
    /// `ÉTÉ` finds `été` (SQLite's `lower()` folds ASCII only).
    @Test func theNameSearchFoldsCaseBeyondASCII() throws {
        let library = try TestLibrary()
        let summer = try library.input(bytes: Pictures.uniqueJPEG(0, tag: "été"), name: "Plage été.jpg")
        try library.save([summer], album: "Trip")
        let server = try GalleryProcess(library: library.root)
        for query in ["ÉTÉ", "été", "PLAGE É"] {
            let encoded = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let (_, json) = try server.json("/api/assets?name=" + encoded)
            #expect(((json as? [String: Any])?["assets"] as? [Any])?.count == 1, "\(query)")
        }
    }

    @Test(arguments: [
        "/api/assets?media=gif", "/api/assets?sort=size", "/api/assets?limit=0", "/api/assets?limit=-5",
        "/api/assets?limit=ten", "/api/assets?limit=1.5", "/api/assets?limit=%2B3",
        "/api/assets?cursor=nonsense", "/api/assets?sort=created&cursor=a3ff.1",
        "/api/assets?month=2023-1", "/api/assets?from=yesterday", "/api/timeline?media=audio",
        "/api/assets?month=2023-13", "/api/assets?month=2023-00", "/api/assets?from=2023-02-30",
        "/api/assets?to=2023-99-99",
        "/api/assets/1/thumbnail?size=300", "/api/assets/1/thumbnail?size=big",
    ])
    func aBadParameterIs400(_ path: String) throws {
        let library = try Self.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let (reply, json) = try server.json(path)
        #expect(reply.status == 400, "\(path): \(reply.text)")
        #expect((json as? [String: Any])?["error"] is String)
    }

    /// The API bounds `limit` not (nor does `list --limit`): a larger one is a page of
    /// 1,000 and the cursor to the rest, as a page of `limit` that many would be.
    @Test func aLimitBeyondAPageGivesAPageAndTheCursorToTheRest() throws {
        let library = try TestLibrary()
        let inputs = try (0..<1003).map { index in
            try library.input(bytes: Pictures.uniqueJPEG(index, tag: "page"), name: BytePath("p\(index).jpg"))
        }
        try library.save(inputs, album: "Many")
        let server = try GalleryProcess(library: library.root)
        for limit in ["1001", "5000", "00001001", "99999999999999999999999"] {
            let (reply, json) = try server.json("/api/assets?album=Many&limit=" + limit)
            try #require(reply.status == 200, "limit=\(limit): \(reply.text)")
            let page = try #require(json as? [String: Any])
            let first = try #require(page["assets"] as? [[String: Any]])
            #expect(first.count == 1000, "limit=\(limit)")
            let cursor = try #require(page["next"] as? String, "limit=\(limit): the rest is a page away")
            let (_, rest) = try server.json("/api/assets?album=Many&limit=\(limit)&cursor=" + cursor)
            let last = try #require((rest as? [String: Any])?["assets"] as? [[String: Any]])
            #expect(last.count == 3 && (rest as? [String: Any])?["next"] is NSNull, "limit=\(limit)")
            #expect(Set((first + last).compactMap(assetID)).count == 1003)
        }
        let (_, small) = try server.json("/api/assets?album=Many&limit=0007")
        #expect(((small as? [String: Any])?["assets"] as? [Any])?.count == 7)
    }

    @Test(arguments: [
        "/api/assets/999", "/api/assets/0", "/api/assets/-1", "/api/assets/abc", "/api/assets/999/thumbnail",
        "/api/assets/999/original", "/api/assets?album=Nowhere", "/api/timeline?album=Nowhere",
        "/api/assets?album=..", "/api/nothing",
    ])
    func anUnknownIDOrAlbumIs404WithAJSONError(_ path: String) throws {
        let library = try Self.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let (reply, json) = try server.json(path)
        #expect(reply.status == 404, "\(path): \(reply.text)")
        #expect(reply.header("content-type") == "application/json; charset=utf-8")
        #expect((json as? [String: Any])?["error"] is String)
    }

    @Test func thumbnailsAndOriginalsAreTheFilesWithRangesHonoured() throws {
        let library = try Self.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let asset = try #require(try library.list("--album", "Trip").first)
        let id = try #require(assetID(asset))
        let bytes = try readFile(BytePath(try #require(asset["path"] as? String)))

        let thumbnail = try server.request("GET", "/api/assets/\(id)/thumbnail?size=256")
        #expect(thumbnail.status == 200)
        #expect(thumbnail.header("content-type") == "image/jpeg")
        #expect(thumbnail.body.starts(with: [0xFF, 0xD8]))
        #expect(try server.request("GET", "/api/assets/\(id)/thumbnail?size=1024").status == 200)

        let original = try server.request("GET", "/api/assets/\(id)/original")
        #expect(original.status == 200)
        #expect(original.header("content-type") == "image/jpeg")
        #expect(original.header("accept-ranges") == "bytes")
        #expect(original.body == bytes)

        let part = try server.request("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=10-19"])
        #expect(part.status == 206)
        #expect(part.header("content-range") == "bytes 10-19/\(bytes.count)")
        #expect(part.body == Array(bytes[10..<20]))
        let tail = try server.request("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=-5"])
        #expect(tail.status == 206)
        #expect(tail.body == Array(bytes.suffix(5)))
        let open = try server.request("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=100-"])
        #expect(open.body == Array(bytes[100...]))
        let outside = try server.request(
            "GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=\(bytes.count + 10)-"])
        #expect(outside.status == 416)
        #expect(outside.header("content-range") == "bytes */\(bytes.count)")
    }

    /// A user album may have a smart album's name (an inbox named Screenshots): the name
    /// means the user's album, in the gallery as on the command line, and only a smart
    /// album's page is marked smart (its live updates follow the smart album's rule).
    @Test func aUserAlbumWithASmartAlbumsNameIsTheOneItsNameMeans() throws {
        let library = try Self.library(count: 1)
        let file = try library.input(bytes: Pictures.uniqueJPEG(0, tag: "named like smart"), name: "a.jpg")
        let id = try #require(try library.save([file], album: "Screenshots").first)
        let server = try GalleryProcess(library: library.root)
        let (reply, json) = try server.json("/api/assets?album=Screenshots")
        #expect(reply.status == 200)
        let listed = ((json as? [String: Any])?["assets"] as? [[String: Any]])?.compactMap(assetID)
        #expect(listed == [id])
        let cli = try library.list("--album", "Screenshots").compactMap(assetID)
        #expect(cli == [id], "the command line means the same album")
        for (path, smart) in [
            ("/albums/Screenshots", false), ("/albums/Videos", true), ("/pick?album=Screenshots", false),
            ("/pick?album=Videos", true), ("/albums/Trip", false),
        ] {
            let page = try server.request("GET", path)
            #expect(page.status == 200, "\(path)")
            #expect(page.text.contains("data-smart-album=\"true\"") == smart, "\(path)")
        }
    }

    /// A direct download of an original saves it under its original name: an ASCII
    /// `filename` with nothing that could end its quotes or the header, and the whole
    /// name as percent-encoded UTF-8 in `filename*` (U+FFFD for bytes that are not UTF-8).
    @Test(arguments: [
        (Array("IMG_1.jpg".utf8), "inline; filename=\"IMG_1.jpg\"; filename*=UTF-8''IMG_1.jpg"),
        (
            Array("Café \"x\"\\;%\r\n.jpg".utf8),
            "inline; filename=\"Caf_ _x__;___.jpg\"; filename*=UTF-8''Caf%C3%A9%20%22x%22%5C%3B%25%0D%0A.jpg"
        ),
        (
            Array("bad".utf8) + [0xFF] + Array(".jpg".utf8),
            "inline; filename=\"bad_.jpg\"; filename*=UTF-8''bad%EF%BF%BD.jpg"
        ),
    ])
    func anOriginalIsNamedAsItWasFiled(name: [UInt8], disposition: String) throws {
        let library = try TestLibrary()
        let file = try library.input(bytes: Pictures.uniqueJPEG(0, tag: "named"), name: BytePath(bytes: name))
        let id = try #require(try library.save([file]).first)
        let server = try GalleryProcess(library: library.root)
        let original = try server.request("GET", "/api/assets/\(id)/original")
        #expect(original.status == 200)
        #expect(original.header("content-disposition") == disposition)
        let part = try server.request("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=0-9"])
        #expect(part.header("content-disposition") == disposition)
    }

    /// A thumbnail that cannot be looked at (a failing disk, injected) is no missing
    /// one: 503, not 404, with no path of the server's disk in the answer; the
    /// server's log names the folder to fix, once.
    @Test func aThumbnailThatCannotBeLookedAtIs503AndLoggedOnce() throws {
        let library = try Self.library(count: 1)
        let asset = try #require(try library.list("--album", "Trip").first)
        let id = try #require(assetID(asset))
        let thumbnails = library.root.appending(".photofiler/thumbnails")
        let server = try GalleryProcess(
            library: library.root, environment: ["PHOTOFILER_FAIL_PATH": "EIO:\(thumbnails.display)"])
        for _ in 0..<2 {
            let (reply, json) = try server.json("/api/assets/\(id)/thumbnail?size=256")
            #expect(reply.status == 503, "\(reply.text)")
            let error = (json as? [String: Any])?["error"] as? String
            #expect(error?.contains("cannot be had now") == true, "\(reply.text)")
            #expect(error?.contains("/") == false, "no path: \(reply.text)")
        }
        let told = server.process.stderrText().split(separator: "\n").filter {
            $0.contains("cannot be looked at")
        }
        #expect(told.count == 1, "\(server.process.stderrText())")
        #expect(told.first?.contains(thumbnails.display) == true, "\(server.process.stderrText())")
    }

    @Test func favoritesAreTheOnlyWritesAnd204() throws {
        let library = try Self.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let id = try #require(try library.list("--album", "Trip").first.flatMap(assetID))
        let page = try server.request("GET", "/")
        let token = try #require(metaToken(page.text))
        let put = try server.request(
            "PUT", "/api/assets/\(id)/favorite", headers: ["X-PhotoFiler-Token": token])
        #expect(put.status == 204)
        #expect(try library.info(BytePath(String(id)))["favorite"] as? Bool == true)
        let delete = try server.request(
            "DELETE", "/api/assets/\(id)/favorite", headers: ["X-PhotoFiler-Token": token])
        #expect(delete.status == 204)
        #expect(try library.info(BytePath(String(id)))["favorite"] as? Bool == false)
        let unknown = try server.request(
            "PUT", "/api/assets/999/favorite", headers: ["X-PhotoFiler-Token": token])
        #expect(unknown.status == 404)
        for path in ["/api/assets/\(id)", "/api/albums", "/api/assets", "/api/timeline", "/"] {
            for method in ["PUT", "DELETE", "POST"] {
                let write = try server.request(method, path, headers: ["X-PhotoFiler-Token": token])
                #expect(write.status == 405, "\(method) \(path)")
            }
        }
    }

    /// Hiding through the API takes the asset out of its album's page, counts and
    /// timeline, and out of a share's sight; the owner still opens it by id.
    @Test func hiddenIsAWriteThatTakesTheAssetOutOfSight() throws {
        let library = try Self.library(count: 2)
        let shareToken = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let trip = try library.list("--album", "Trip").compactMap(assetID)
        let id = try #require(trip.first)
        let token = try #require(metaToken(try server.request("GET", "/").text))
        #expect(try server.request("PUT", "/api/assets/\(id)/hidden").status == 403, "no write token")
        let put = try server.request(
            "PUT", "/api/assets/\(id)/hidden", headers: ["X-PhotoFiler-Token": token])
        #expect(put.status == 204)
        #expect(try library.info(BytePath(String(id)))["hidden"] as? Bool == true)

        func listed(_ query: String, _ headers: [String: String] = [:]) throws -> [Int64]? {
            let (_, json) = try server.json("/api/assets?" + query, headers: headers)
            return ((json as? [String: Any])?["assets"] as? [[String: Any]])?.compactMap(assetID)
        }
        #expect(try listed("album=Trip") == Array(trip.dropFirst()))
        #expect(try listed("album=Hidden") == [id])
        let (_, timeline) = try server.json("/api/timeline?album=Trip")
        #expect(
            (timeline as? [[String: Any]])?.compactMap { $0["count"] as? Int }.reduce(0, +) == trip.count - 1)
        let (_, albums) = try server.json("/api/albums")
        let counts = Dictionary(
            uniqueKeysWithValues: (albums as? [[String: Any]] ?? []).map {
                ($0["name"] as? String ?? "", $0["count"] as? Int ?? -1)
            })
        #expect(counts["Trip"] == trip.count - 1 && counts["Hidden"] == 1, "\(counts)")
        let (shown, json) = try server.json("/api/assets/\(id)")
        #expect(shown.status == 200 && (json as? [String: Any])?["hidden"] as? Bool == true)
        let share = ["X-PhotoFiler-Token": shareToken]
        #expect(try server.request("GET", "/api/assets/\(id)", headers: share).status == 404)
        #expect(try listed("", share) == Array(trip.dropFirst()))

        let delete = try server.request(
            "DELETE", "/api/assets/\(id)/hidden", headers: ["X-PhotoFiler-Token": token])
        #expect(delete.status == 204)
        #expect(try listed("album=Trip") == trip)
        #expect(try server.request("GET", "/api/assets/\(id)", headers: share).status == 200)
        #expect(
            try server.request("POST", "/api/assets/\(id)/hidden", headers: ["X-PhotoFiler-Token": token])
                .status == 405)
    }

    @Test func pagesAreServedWithTheirMarkersAndScript() throws {
        let library = try Self.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let id = try #require(try library.list().first.flatMap(assetID))
        for path in ["/", "/albums/Trip", "/albums/Recently%20Added", "/assets/\(id)", "/pick"] {
            let page = try server.request("GET", path)
            #expect(page.status == 200, "\(path)")
            #expect(page.header("content-type") == "text/html; charset=utf-8")
            #expect(page.text.contains("<meta name=\"photofiler-token\""))
            #expect(page.text.contains("<script src=\"/static/gallery.js\""))
            #expect(!page.text.contains("<script>"), "no inline script")
            #expect(page.text.contains("<link rel=\"icon\" href=\"/static/icon.svg\""))
        }
        #expect(try server.request("GET", "/albums/Trip").text.contains("data-album=\"Trip\""))
        #expect(try server.request("GET", "/albums/Nowhere").status == 404)
        #expect(try server.request("GET", "/assets/999").status == 404)
        let script = try server.request("GET", "/static/gallery.js")
        #expect(script.status == 200)
        #expect(script.header("content-type") == "text/javascript; charset=utf-8")
        #expect(script.text.contains("data-asset-id") && script.text.contains("data-album"))
        #expect(
            try server.request("GET", "/static/gallery.css").header("content-type")
                == "text/css; charset=utf-8")
        // The icon every page declares, so that the browser asks for no /favicon.ico (a 404 in its console).
        #expect(try server.request("GET", "/static/icon.svg").header("content-type") == "image/svg+xml")
        // The SharedWorker that holds the origin's one event stream: a script by its MIME type (nosniff).
        let worker = try server.request("GET", "/static/events-worker.js")
        #expect(worker.status == 200)
        #expect(worker.header("content-type") == "text/javascript; charset=utf-8")
        #expect(worker.text.contains("new EventSource('/api/events')"))
    }
}

/// The write token a page carries.
func metaToken(_ html: String) -> String? {
    guard let range = html.range(of: "<meta name=\"photofiler-token\" content=\"") else { return nil }
    let rest = html[range.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
}
