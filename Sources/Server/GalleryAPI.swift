import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMediaTypes

/// The album a request names, as a query narrowed to it.
enum AlbumResolution {
    case found(AssetQuery)
    case missing
    case invalid
}

/// A request parameter that is not one the API allows: 400 with this message.
struct BadParameter: Error {
    let message: String
}

extension Gallery {
    /// `/api/…`, after the safety checks.
    func api(_ parts: [String], _ request: HTTPRequest, scope: AccessScope) -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        do {
            switch (method, parts.count, parts.first) {
            case ("GET", 1, "albums"): return try albums(scope: scope)
            case ("GET", 1, "assets"): return try assets(request, scope: scope)
            case ("GET", 1, "timeline"): return try timeline(request, scope: scope)
            case ("GET", 1, "events"): return eventStream(request, scope: scope)
            case ("POST", 1, "pick"), ("POST", 2, "pick"):
                guard case .library = scope else { break }
                let action = parts.count == 2 ? parts[1] : nil
                if let picker { return try picker.choose(action, request: request, gallery: self) }
                return try pick(action, request)
            case (_, 1, "albums"), (_, 1, "assets"), (_, 1, "timeline"), (_, 1, "events"):
                return .error(405, "\(request.path) is read-only.")
            case (_, 2...3, "assets"):
                return try asset(parts, method: method, request, scope: scope)
            default: break
            }
            return .error(404, "There is no \(request.method) \(request.path) in the gallery's API.")
        } catch let error as BadParameter {
            return .error(400, error.message)
        } catch {
            return Self.catalogFailed(error)
        }
    }

    private func albums(scope: AccessScope) throws -> HTTPResponse {
        let layout = catalog.layout
        let summaries = try catalog.read { try $0.albumSummaries(now: Date().timeIntervalSince1970) }
        let visible = summaries.filter { summary in
            switch (scope, summary.kind) {
            case (.library, _): return true
            case (.album(let shared, _), .user(let album)): return album.id == shared.id
            case (.album, .smart): return false
            }
        }
        let albums = try catalog.read { catalog in
            try visible.map { summary in
                let hash = try summary.cover.flatMap { try catalog.asset(id: $0) }?.hash
                var album = AlbumJSON(summary, layout: layout, coverHash: hash)
                if case .album = scope {
                    // The owner's folders are none of a visitor's business: the API's own addresses instead.
                    album.path = nil
                    album.coverThumbnail = album.cover.map { "/api/assets/\($0)/thumbnail" }
                }
                return album
            }
        }
        return .json(albums)
    }

    /// `{"assets": [...], "next": cursor or null}`: one page, newest first.
    private func assets(_ request: HTTPRequest, scope: AccessScope) throws -> HTTPResponse {
        struct Page: Encodable {
            var assets: [AssetJSON]
            var next: String?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(assets, forKey: .assets)
                try container.encode(next, forKey: .next)  // null, not absent, on the last page
            }
            enum CodingKeys: String, CodingKey { case assets, next }
        }
        guard var query = try narrowed(request, scope: scope) else {
            return .error(404, "There is no album named '\(request.query["album"] ?? "")'.")
        }
        let limit = try Self.pageSize(request.query["limit"])
        if let text = request.query["cursor"], !text.isEmpty {
            guard let cursor = AssetCursor(text: text, sort: query.sort) else {
                throw BadParameter(
                    message: "The cursor '\(text)' is not one this listing gave; start without one.")
            }
            query.refinements.after = cursor
        }
        query.limit = limit + 1
        let layout = catalog.layout
        let result = try catalog.read { catalog throws(CatalogError) -> Page in
            let rows = try catalog.assets(matching: query)
            var objects: [AssetJSON] = []
            objects.reserveCapacity(min(rows.count, limit))
            for row in rows.prefix(limit) {
                objects.append(try Self.json(of: row, catalog: catalog, layout: layout, scope: scope))
            }
            let next = rows.count > limit ? AssetCursor(after: rows[limit - 1], sort: query.sort).text : nil
            return Page(assets: objects, next: next)
        }
        return .json(result)
    }

    private func timeline(_ request: HTTPRequest, scope: AccessScope) throws -> HTTPResponse {
        struct Month: Encodable {
            var month: String
            var count: Int
        }
        guard let query = try narrowed(request, scope: scope) else {
            return .error(404, "There is no album named '\(request.query["album"] ?? "")'.")
        }
        let cache = timelines
        let months = try catalog.read { try cache.timeline(query, in: $0) }
        return .json(months.map { Month(month: $0.month, count: $0.count) })
    }

    /// The gallery's own picker: Add answers with the picked assets (as `pick --json`
    /// prints them), Cancel with nothing; no command waits on either.
    private func pick(_ action: String?, _ request: HTTPRequest) throws -> HTTPResponse {
        switch action {
        case "cancel": return .noContent()
        case nil:
            let ids = try PickFilter(query: request.query).pickedIDs(request, gallery: self)
            let layout = catalog.layout
            return .json(
                try catalog.read { catalog throws(CatalogError) -> [AssetJSON] in
                    var picked: [AssetJSON] = []
                    for id in ids {
                        guard let asset = try catalog.asset(id: id) else { continue }
                        picked.append(
                            try Self.json(of: asset, catalog: catalog, layout: layout, scope: .library))
                    }
                    return picked
                })
        default: return .error(404, "The picker has no action '\(action ?? "")'.")
        }
    }

    /// A reconnecting browser sends `Last-Event-ID` (the `id:` of the last event it saw).
    private func eventStream(_ request: HTTPRequest, scope: AccessScope) -> HTTPResponse {
        var share: ShareRecord?
        if case .album(_, let record) = scope { share = record }
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
            body: .stream(events.open(share: share, lastEventID: request.header("last-event-id"))))
    }

    /// `/api/assets/ID`, `…/thumbnail`, `…/original`, `…/video` (a Live Photo's), `…/favorite`, `…/hidden`.
    private func asset(_ parts: [String], method: String, _ request: HTTPRequest, scope: AccessScope) throws
        -> HTTPResponse
    {
        let part = parts.count == 3 ? parts[2] : nil
        var thumbnailSize = 256
        if method == "GET", part == "thumbnail" {
            thumbnailSize = try Self.integer(request.query["size"], name: "size", in: 1...1024) ?? 256
            guard thumbnailSize == 256 || thumbnailSize == 1024 else {
                throw BadParameter(message: "The thumbnail size is 256 or 1024, not \(thumbnailSize).")
            }
            if case .library = scope, let id = AssetID(parts[1]), id > 0,
                let known = knownThumbnail(KnownThumbnails.Key(asset: id, size: thumbnailSize))
            {
                return known
            }
        }
        let generation = knownThumbnails.current
        guard let id = AssetID(parts[1]), id > 0, let asset = try visibleAsset(id, scope: scope) else {
            return .error(404, "There is no asset '\(parts[1])' in this gallery.")
        }
        switch (method, part) {
        case ("GET", nil):
            let layout = catalog.layout
            return .json(
                try catalog.read { try Self.json(of: asset, catalog: $0, layout: layout, scope: scope) })
        case ("GET", "thumbnail"):
            let file: ThumbnailFile
            switch thumbnails.thumbnail(of: asset, size: thumbnailSize) {
            case .file(let made): file = made
            case .none: return .error(404, "Asset \(asset.id) has no thumbnail: its file cannot be decoded.")
            case .failed(let reason): return .error(503, reason)
            }
            // Made or found a moment ago: a file that cannot be opened now is not "none".
            guard let response = sending(file) else {
                return .error(503, "Asset \(asset.id)'s thumbnail cannot be read now; try again.")
            }
            if case .library = scope {
                knownThumbnails.remember(
                    file, for: KnownThumbnails.Key(asset: id, size: thumbnailSize), readAt: generation)
            }
            return response
        case ("GET", "original"):
            return original(of: asset, request: request)
        case ("GET", "video"):
            return liveVideo(of: asset, request: request)
        case ("PUT", "favorite"), ("DELETE", "favorite"):
            let favorite = method == "PUT"
            try catalog.read { try $0.setFavorite(favorite, of: id) }
            return .noContent()
        case ("PUT", "hidden"), ("DELETE", "hidden"):
            let hidden = method == "PUT"
            try catalog.read { try $0.setHidden(hidden, of: id) }
            return .noContent()
        case (_, nil), (_, "thumbnail"), (_, "original"), (_, "video"), (_, "favorite"), (_, "hidden"):
            return .error(405, "\(request.path) does not take \(request.method).")
        default:
            return .error(404, "There is no \(request.path) in the gallery's API.")
        }
    }

    /// An asset as `info --json` shows it; a share names only its own album among
    /// the asset's albums, and the inbox it came from only when that is its album's
    /// (an inbox is named after the album it feeds: the others are none of its business).
    private static func json(
        of asset: AssetRecord, catalog: Catalog, layout: LibraryLayout, scope: AccessScope
    )
        throws(CatalogError) -> AssetJSON
    {
        var json = try AssetJSON.load(asset, catalog: catalog, layout: layout)
        if case .album(let shared, _) = scope {
            json.albums = json.albums.filter { $0 == shared.name }
            if json.sourceInbox != shared.name { json.sourceInbox = nil }
            // No path of the owner's (`/home/NAME/…`): the addresses the API serves the files at.
            let api = "/api/assets/\(asset.id)"
            json.path = api + "/original"
            json.pathBase64 = nil
            json.thumbnail = OrNull(api + "/thumbnail")
            json.liveVideo?.path = api + "/video"
        }
        return json
    }

    /// The asset with that id if the scope may see it.
    func visibleAsset(_ id: AssetID, scope: AccessScope) throws(CatalogError) -> AssetRecord? {
        try catalog.read { catalog throws(CatalogError) -> AssetRecord? in
            switch scope {
            case .library: return try catalog.asset(id: id)
            case .album(let shared, _):
                guard try catalog.isVisibleMember(id, shared.id) else { return nil }
                return try catalog.asset(id: id)
            }
        }
    }

    /// The album a request names (none: the whole library, or a share's own album).
    func resolveAlbum(_ name: String?, scope: AccessScope) throws(CatalogError) -> AlbumResolution {
        var query = AssetQuery(now: Date().timeIntervalSince1970)
        guard let name else {
            if case .album(let shared, _) = scope { query.album = shared.id }
            return .found(query)
        }
        guard let album = try? AlbumName(validating: name) else { return .invalid }
        switch scope {
        case .album(let shared, _):
            guard album.value == shared.name else { return .missing }
            query.album = shared.id
            return .found(query)
        case .library:
            // A read that failed is not an unknown album: it throws (500), as every API read does.
            guard
                let selection = try catalog.read({ (catalog) throws(CatalogError) in
                    try AlbumSelection.find(album, in: catalog)
                })
            else {
                return .missing
            }
            query.narrow(to: selection)
            return .found(query)
        }
    }

    /// The query for `/api/assets` and `/api/timeline`: album, media, sort and the
    /// gallery's own month, name and date filters; nil for an unknown album.
    private func narrowed(_ request: HTTPRequest, scope: AccessScope) throws -> AssetQuery? {
        guard case .found(var query) = try resolveAlbum(request.query["album"], scope: scope) else {
            return nil
        }
        switch request.query["media"] {
        case nil, "", "all": break
        case "image": query.mediaType = .image
        case "video": query.mediaType = .video
        case "live": query.refinements.subtype = "live"
        // The filter row's kinds of pictures: each one a smart album's subtype.
        case let kind? where SmartAlbum.allCases.contains { $0.kindSubtype == kind }:
            query.refinements.subtype = kind
        case let other?:
            throw BadParameter(
                message: "media is image, video, live or a kind (panorama, selfie, portrait, burst, slomo, "
                    + "timelapse, raw), not '\(other)'.")
        }
        switch request.query["sort"] {
        case nil, "", "added": query.sort = .added
        case "created": query.sort = .created
        case let other?: throw BadParameter(message: "sort is added or created, not '\(other)'.")
        }
        query.refinements.month = try Self.date(request.query["month"], name: "month", digits: [4, 2])
        query.refinements.createdFrom = try Self.date(request.query["from"], name: "from", digits: [4, 2, 2])
        query.refinements.createdThrough = try Self.date(request.query["to"], name: "to", digits: [4, 2, 2])
        if let name = request.query["name"], !name.isEmpty {
            guard name.utf8.count <= 200 else {
                throw BadParameter(message: "name is at most 200 bytes long.")
            }
            query.refinements.nameContains = name
        }
        return query
    }

    /// Assets a page holds at most, whatever `limit` asks: a bigger page is a longer
    /// wait on the catalog's one queue for every other request; `next` leads on.
    static let largestPage = 1000

    /// `limit`: any whole number of 1 or more (the API bounds it not, nor does `list
    /// --limit`), 100 when absent; a page holds `largestPage` at most.
    static func pageSize(_ text: String?) throws -> Int {
        guard let text, !text.isEmpty else { return 100 }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard text.utf8.allSatisfy(digits.contains), text.utf8.contains(where: { $0 != UInt8(ascii: "0") })
        else {
            throw BadParameter(message: "limit is a whole number of 1 or more, not '\(text)'.")
        }
        // Digits alone: `Int` fails only past its largest value, more than a page too.
        return min(Int(text) ?? largestPage, largestPage)
    }

    static func integer(_ text: String?, name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard text.allSatisfy(\.isASCII), let value = Int(text), range.contains(value) else {
            throw BadParameter(
                message:
                    "\(name) is a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'."
            )
        }
        return value
    }

    /// `YYYY-MM` or `YYYY-MM-DD` (digits per dash-separated part), a month or day that
    /// exists: SQLite would read `2023-13` as no date at all and answer an empty page.
    static func date(_ text: String?, name: String, digits: [Int]) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let shaped =
            parts.count == digits.count
            && zip(parts, digits).allSatisfy { part, count in
                part.count == count && part.allSatisfy { $0.isASCII && $0.isNumber }
            }
        guard shaped, Self.exists(parts.compactMap { Int($0) }) else {
            let shape = digits.count == 2 ? "YYYY-MM" : "YYYY-MM-DD"
            throw BadParameter(message: "\(name) is a date as \(shape), not '\(text)'.")
        }
        return text
    }

    /// The year, month and (when given) day name a day of the Gregorian calendar.
    private static func exists(_ numbers: [Int]) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        guard numbers.count >= 2, let utc = TimeZone(secondsFromGMT: 0) else { return false }
        calendar.timeZone = utc  // a zone whose clocks skip midnight would lose a day
        let day = DateComponents(year: numbers[0], month: numbers[1], day: numbers.count > 2 ? numbers[2] : 1)
        return day.isValidDate(in: calendar)
    }
}
