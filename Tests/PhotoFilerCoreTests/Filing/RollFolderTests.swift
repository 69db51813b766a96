import Foundation
import PhotoFilerFiling
import PhotoFilerMediaTypes
import PhotoFilerSystem
import Testing

/// The Roll's date folders come from civil arithmetic, not Foundation's Calendar:
/// they must agree with it at every month and year boundary, in both directions of
/// an offset, and for dates far before the epoch.
@Suite struct RollFolderTests {
    static let instants: [Int64] = [
        0, -1, 951_782_399, 951_782_400, 951_868_799, 1_704_067_199, 1_704_067_200, 1_709_164_800,
        -4_102_444_800, 4_102_444_799, 1_701_428_096,
    ]
    static let offsets: [Int?] = [nil, 0, 3600, -3600, 19_800, -36_000, 50_400]

    @Test(arguments: instants, offsets)
    func agreesWithTheGregorianCalendar(seconds: Int64, offset: Int?) throws {
        let layout = LibraryLayout(root: "/library")
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let date = CaptureDate(secondsSinceEpoch: seconds, utcOffsetSeconds: offset, source: .exif)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? zone
        let parts = calendar.dateComponents(
            [.year, .month], from: Date(timeIntervalSince1970: Double(seconds)))
        let expected = String(format: "Roll/%04d/%02d", parts.year ?? 0, parts.month ?? 0)
        #expect(layout.rollFolder(for: date, timeZone: zone) == BytePath(expected))
    }
}
