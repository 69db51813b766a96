import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// A small library with one asset in each interesting state.
private struct Fixture {
    static let now: Double = 100_000_000
    static let day: Double = 86_400

    let folder: TemporaryFolder
    let catalog: Catalog
    let qq: AlbumRecord
    let weChat: AlbumRecord
    let empty: AlbumRecord

    init() throws {
        folder = try TemporaryFolder()
        catalog = try folder.catalog()
        let day = Self.day
        let now = Self.now
        // id: added, created
        // 1: image, 40 days ago, created 500, QQ
        // 2: video, favorite, 10 days ago, created 100, QQ
        // 3: animated image, 5 days ago, created 900, WeChat
        // 4: screenshot, 1 day ago, created 300, WeChat (and QQ, ended)
        // 5: image, 2 days ago, created 800, QQ, deleted
        _ = try catalog.insertAsset(sampleAsset(1, addedAt: now - 40 * day, createdAt: 500))
        _ = try catalog.insertAsset(
            sampleAsset(2, addedAt: now - 10 * day, createdAt: 100, mediaType: .video))
        _ = try catalog.insertAsset(
            sampleAsset(3, addedAt: now - 5 * day, createdAt: 900, subtypes: ["animated"]))
        _ = try catalog.insertAsset(
            sampleAsset(4, addedAt: now - day, createdAt: 300, subtypes: ["screenshot"]))
        _ = try catalog.insertAsset(sampleAsset(5, addedAt: now - 2 * day, createdAt: 800))
        try catalog.setFavorite(true, of: 2)
        qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        weChat = try catalog.createAlbum(name: "WeChat", folderName: "WeChat", at: 0)
        empty = try catalog.createAlbum(name: "Empty", folderName: "Empty", at: 0)
        for (asset, album) in [(1, qq), (2, qq), (3, weChat), (4, weChat), (4, qq), (5, qq)] {
            try catalog.addMembership(
                asset: AssetID(asset), album: album.id, entryName: BytePath("e\(asset)"), at: 0)
        }
        try catalog.endMembership(asset: 4, album: qq.id, at: now)
        try catalog.markDeleted(5, at: now, trashPath: "5.jpg")
    }

    func ids(
        album: AlbumRecord? = nil, smart: SmartAlbum? = nil, media: MediaType? = nil,
        sort: AssetQuery.Sort = .added, limit: Int? = nil
    ) throws -> [AssetID] {
        let query = AssetQuery(
            album: album?.id, smartAlbum: smart, mediaType: media, sort: sort, limit: limit, now: Self.now)
        return try catalog.assets(matching: query).map(\.id)
    }
}

@Suite struct CatalogQueryTests {
    @Test func listsLiveAssetsNewestFirst() throws {
        let fixture = try Fixture()
        #expect(try fixture.ids() == [4, 3, 2, 1])
        #expect(try fixture.ids(sort: .created) == [3, 1, 4, 2])
        #expect(try fixture.ids(limit: 2) == [4, 3])
        #expect(try fixture.ids(limit: 0) == [])
        #expect(try fixture.ids(media: .video) == [2])
        #expect(try fixture.ids(media: .image) == [4, 3, 1])
        #expect(try fixture.ids(media: .image, sort: .created, limit: 2) == [3, 1])
    }

    @Test func listsAlbumsWithoutEndedOrDeletedMembers() throws {
        let fixture = try Fixture()
        #expect(try fixture.ids(album: fixture.qq) == [2, 1])
        #expect(try fixture.ids(album: fixture.qq, sort: .created) == [1, 2])
        #expect(try fixture.ids(album: fixture.weChat) == [4, 3])
        #expect(try fixture.ids(album: fixture.weChat, sort: .created) == [3, 4])
        #expect(try fixture.ids(album: fixture.weChat, limit: 1) == [4])
        #expect(try fixture.ids(album: fixture.qq, media: .video) == [2])
        #expect(try fixture.ids(album: fixture.empty) == [])
        #expect(try fixture.ids(album: fixture.qq, smart: .recentlyDeleted) == [5])
        #expect(try fixture.ids(album: fixture.weChat, smart: .animated) == [3])
    }

    @Test func listsSmartAlbums() throws {
        let fixture = try Fixture()
        #expect(try fixture.ids(smart: .videos) == [2])
        #expect(try fixture.ids(smart: .animated) == [3])
        #expect(try fixture.ids(smart: .screenshots) == [4])
        #expect(try fixture.ids(smart: .recentlyAdded) == [4, 3, 2])
        #expect(try fixture.ids(smart: .recentlyAdded, sort: .created) == [3, 4, 2])
        #expect(try fixture.ids(smart: .favorites) == [2])
        #expect(try fixture.ids(smart: .recentlyDeleted) == [5])
        #expect(try fixture.ids(smart: .recentlyAdded, media: .image, limit: 1) == [4])
    }

    @Test func summarisesAlbumsWithCountsAndCovers() throws {
        let fixture = try Fixture()
        let summaries = try fixture.catalog.albumSummaries(now: Fixture.now)
        #expect(summaries.map(\.name) == ["Empty", "QQ", "WeChat"] + SmartAlbum.allCases.map(\.rawValue))
        let expected: [String: (Int, AssetID?)] = [
            "Empty": (0, nil), "QQ": (2, 2), "WeChat": (2, 4), "Videos": (1, 2), "Animated": (1, 3),
            "Screenshots": (1, 4), "Recently Added": (3, 4), "Favorites": (1, 2), "Recently Deleted": (1, 5),
            "Live Photos": (0, nil), "Hidden": (0, nil), "Panoramas": (0, nil), "Selfies": (0, nil),
            "Portraits": (0, nil), "Bursts": (0, nil), "Slo-mo": (0, nil), "Time-lapse": (0, nil),
            "RAW": (0, nil),
        ]
        for summary in summaries {
            let (count, cover) = try #require(expected[summary.name])
            #expect(summary.count == count, "\(summary.name)")
            #expect(summary.cover == cover, "\(summary.name)")
        }
        #expect(summaries.first?.kind == .user(fixture.empty))
        #expect(summaries.last?.kind == .smart(.recentlyDeleted))
    }

    /// Each kind of picture is a smart album of the assets of its subtype, listed
    /// in the phone's order between Screenshots and Recently Added.
    @Test(arguments: [
        (SmartAlbum.panoramas, "panorama"), (.selfies, "selfie"), (.portraits, "portrait"),
        (.bursts, "burst"),
        (.slomo, "slomo"), (.timelapse, "timelapse"), (.raw, "raw"),
    ])
    func kindsOfPicturesAreSmartAlbumsOfTheirSubtype(album: SmartAlbum, subtype: String) throws {
        let fixture = try Fixture()
        #expect(try fixture.ids(smart: album) == [])
        _ = try fixture.catalog.insertAsset(
            sampleAsset(6, addedAt: Fixture.now, createdAt: 1000, subtypes: ["live", subtype]))
        _ = try fixture.catalog.insertAsset(
            sampleAsset(7, addedAt: Fixture.now, createdAt: 1000, subtypes: [subtype + "s"]))
        #expect(try fixture.ids(smart: album) == [6])
        #expect(album.kindSubtype == subtype)
        let summary = try fixture.catalog.albumSummaries(now: Fixture.now).first { $0.name == album.rawValue }
        #expect(summary?.count == 1 && summary?.cover == 6)
        try fixture.catalog.setHidden(true, of: 6)
        #expect(try fixture.ids(smart: album) == [])
    }

    @Test func smartAlbumsComeInThePhonesOrder() {
        #expect(
            SmartAlbum.allCases.map(\.rawValue) == [
                "Videos", "Live Photos", "Animated", "Screenshots", "Panoramas", "Selfies", "Portraits",
                "Bursts",
                "Slo-mo", "Time-lapse", "RAW", "Recently Added", "Favorites", "Hidden", "Recently Deleted",
            ])
    }

    @Test func restoringBringsAnAssetBackIntoItsAlbums() throws {
        let fixture = try Fixture()
        try fixture.catalog.markRestored(5, rollPath: "Roll/back.jpg")
        #expect(try fixture.ids(album: fixture.qq) == [5, 2, 1])
        #expect(try fixture.ids(smart: .recentlyDeleted) == [])
    }

    /// A hidden asset leaves its albums, the smart albums, the counts, the covers,
    /// the timeline and Recently Deleted; the Hidden album alone lists it, and
    /// showing it again puts it back as it was.
    @Test func hidingTakesAnAssetOutOfEveryListingButHidden() throws {
        let fixture = try Fixture()
        let catalog = fixture.catalog
        try catalog.setHidden(true, of: 2)
        try catalog.setHidden(true, of: 4)
        try catalog.setHidden(true, of: 5)
        #expect(try fixture.ids() == [3, 1])
        #expect(try fixture.ids(album: fixture.qq) == [1])
        #expect(try fixture.ids(album: fixture.weChat) == [3])
        #expect(try fixture.ids(smart: .videos) == [])
        #expect(try fixture.ids(smart: .favorites) == [])
        #expect(try fixture.ids(smart: .recentlyAdded) == [3])
        #expect(try fixture.ids(smart: .recentlyDeleted) == [], "a hidden asset stays out of sight")
        #expect(try fixture.ids(smart: .hidden) == [4, 2], "deleted ones are not listed")
        #expect(try fixture.ids(album: fixture.qq, smart: .hidden) == [2])
        let summaries = Dictionary(
            uniqueKeysWithValues: try catalog.albumSummaries(now: Fixture.now).map { ($0.name, $0) })
        #expect(summaries["QQ"]?.count == 1 && summaries["QQ"]?.cover == 1)
        #expect(summaries["WeChat"]?.count == 1 && summaries["WeChat"]?.cover == 3)
        #expect(summaries["Hidden"]?.count == 2 && summaries["Hidden"]?.cover == 4)
        #expect(summaries["Favorites"]?.count == 0 && summaries["Favorites"]?.cover == nil)
        let months = try catalog.timeline(AssetQuery(album: fixture.qq.id, now: Fixture.now))
        #expect(months.map(\.count).reduce(0, +) == 1)
        #expect(try !catalog.isVisibleMember(2, fixture.qq.id))
        #expect(try catalog.isVisibleMember(1, fixture.qq.id))

        try catalog.markRestored(5, rollPath: "Roll/back.jpg")
        #expect(try catalog.asset(id: 5)?.hidden == true, "restored, it stays hidden")
        #expect(try fixture.ids(smart: .hidden) == [4, 5, 2])
        for id: AssetID in [2, 4, 5] { try catalog.setHidden(false, of: id) }
        #expect(try fixture.ids(album: fixture.qq) == [5, 2, 1])
        #expect(try fixture.ids(smart: .favorites) == [2])
        #expect(try fixture.ids(smart: .hidden) == [])
    }

    /// The search by name folds case by Unicode's rules; an empty search text folds
    /// to an empty text (which every name contains), not to a crash in SQLite's callback.
    @Test func theNameSearchFoldsUnicodeCaseAndTakesEmptyText() throws {
        let fixture = try Fixture()
        func names(containing text: String) throws -> Int {
            var query = AssetQuery(sort: .added, now: Fixture.now)
            query.refinements.nameContains = text
            return try fixture.catalog.assets(matching: query).count
        }
        let all = try fixture.ids().count
        #expect(try names(containing: "") == all)
        #expect(try names(containing: "\u{C9}T\u{C9}") == 0)
    }

    @Test func tiesGoToTheHigherID() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        for number in 1...3 { _ = try catalog.insertAsset(sampleAsset(number, addedAt: 5, createdAt: 5)) }
        let album = try catalog.createAlbum(name: "A", folderName: "A", at: 0)
        for id in [2, 1, 3] {
            try catalog.addMembership(
                asset: AssetID(id), album: album.id, entryName: BytePath("\(id)"), at: 0)
        }
        for sort in [AssetQuery.Sort.added, .created] {
            #expect(try catalog.assets(matching: AssetQuery(sort: sort, now: 10)).map(\.id) == [3, 2, 1])
            let inAlbum = AssetQuery(album: album.id, sort: sort, now: 10)
            #expect(try catalog.assets(matching: inAlbum).map(\.id) == [3, 2, 1])
        }
    }

    /// Every list query walks an index in order: no full scan of the assets,
    /// no sort of all matches (the limit then stops the walk early).
    @Test(arguments: [AssetQuery.Sort.added, .created])
    func queryPlansUseIndexes(sort: AssetQuery.Sort) throws {
        let fixture = try Fixture()
        var queries: [AssetQuery] = [
            AssetQuery(sort: sort, limit: 100, now: 0),
            AssetQuery(album: 1, sort: sort, limit: 100, now: 0),
            AssetQuery(album: 1, mediaType: .video, sort: sort, limit: 100, now: 0),
        ]
        if sort == .added {
            queries += SmartAlbum.allCases.map {
                AssetQuery(smartAlbum: $0, sort: .added, limit: 100, now: 0)
            }
            queries.append(AssetQuery(mediaType: .video, sort: .added, limit: 100, now: 0))
        }
        for query in queries {
            let (sql, values) = query.statement()
            let plan = try fixture.catalog.connection.query("EXPLAIN QUERY PLAN " + sql, values) {
                $0.text(3)
            }
            let text = plan.joined(separator: " | ")
            #expect(!text.contains("TEMP B-TREE"), "\(query): \(text)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("INDEX") }, "\(query): \(text)")
        }
    }
}
