import Foundation
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerSystem

/// Times the list and album queries on 100,000 assets. Off by default (it
/// takes a few seconds to fill); run with
/// `PHOTOFILER_BENCHMARK=1 swift test --filter CatalogBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PHOTOFILER_BENCHMARK"] == "1"))
struct CatalogBenchmark {
    @Test func queriesOnAHundredThousandAssets() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let total = 100_000
        let names = ["QQ", "WeChat", "Weibo", "Screenshots", "Downloads"]
        var albums: [AlbumRecord] = []
        let fill = ContinuousClock().measure {
            try? catalog.transaction {
                for name in names {
                    albums.append(try catalog.createAlbum(name: name, folderName: BytePath(name), at: 0))
                }
                albums.append(try catalog.createAlbum(name: "Sparse", folderName: "Sparse", at: 0))
                for number in 1...total {
                    let asset = sampleAsset(
                        number, addedAt: 1_600_000_000 + Double(number) * 60,
                        createdAt: 1_500_000_000 + Int64((number * 7919) % total) * 60,
                        mediaType: number % 10 == 0 ? .video : .image,
                        subtypes: number % 50 == 0 ? ["animated"] : number % 7 == 0 ? ["screenshot"] : [],
                        favorite: number % 100 == 0)
                    let id = try catalog.insertAsset(asset)
                    try catalog.addMembership(
                        asset: id, album: albums[number % names.count].id, entryName: asset.originalName,
                        at: 0)
                    // A small album whose members are all old: the worst case for walking
                    // the assets by date and probing memberships.
                    if number <= 100 {
                        try catalog.addMembership(
                            asset: id, album: albums[5].id, entryName: asset.originalName, at: 0)
                    }
                    if number % 1000 == 0 { try catalog.markDeleted(id, at: 1_700_000_000, trashPath: nil) }
                }
            }
        }
        print("benchmark: filled \(total) assets in \(fill)")
        #expect(try catalog.allAssets().count == total)

        let now = 1_600_000_000 + Double(total) * 60
        var queries: [(String, AssetQuery)] = [
            ("all, added", AssetQuery(limit: 100, now: now)),
            ("all, created", AssetQuery(sort: .created, limit: 100, now: now)),
            ("media video", AssetQuery(mediaType: .video, limit: 100, now: now)),
            ("album QQ, added", AssetQuery(album: albums[0].id, limit: 100, now: now)),
            ("album QQ, created", AssetQuery(album: albums[0].id, sort: .created, limit: 100, now: now)),
            ("album QQ, video", AssetQuery(album: albums[0].id, mediaType: .video, limit: 100, now: now)),
            ("album Sparse, added", AssetQuery(album: albums[5].id, limit: 100, now: now)),
        ]
        for smart in SmartAlbum.allCases {
            queries.append(("smart \(smart.rawValue)", AssetQuery(smartAlbum: smart, limit: 100, now: now)))
        }
        for (label, query) in queries {
            _ = try catalog.assets(matching: query)  // prepare and warm the cache
            var rows = 0
            let elapsed = try ContinuousClock().measure { rows = try catalog.assets(matching: query).count }
            print("benchmark: \(label): \(rows) rows in \(elapsed)")
            #expect(elapsed < .milliseconds(50), "\(label)")
        }
        _ = try catalog.albumSummaries(now: now)
        var summaries: [AlbumSummary] = []
        let elapsed = try ContinuousClock().measure { summaries = try catalog.albumSummaries(now: now) }
        print("benchmark: albumSummaries (\(summaries.count) albums) in \(elapsed)")
        for summary in summaries {
            print(
                "benchmark:   \(summary.name): \(summary.count), cover \(String(describing: summary.cover))")
        }
        #expect(elapsed < .milliseconds(100))
    }
}
