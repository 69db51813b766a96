import Foundation
import Testing

@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

@Suite struct CaptureDatesTests {
    static let shanghai = TimeZone(identifier: "Asia/Shanghai")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// 2023-12-01 12:34:56 in Shanghai (UTC+8, no DST).
    static let noonish: Int64 = 1_701_405_296
    /// 2025-06-01T00:00:00Z: "next year" is 2026, so 2027-01-01 is the first absurd instant.
    static let now = Date(timeIntervalSince1970: 1_748_736_000)

    @Test(arguments: [
        // The patterns of photofiler(1) "Capture date".
        ("mmexport1701428096000.jpg", Int64(1_701_428_096)),
        ("wx_camera_1701428096000.jpg", 1_701_428_096),
        ("IMG-20231201-WA0001.jpg", 1_701_360_000),  // date only: local midnight
        ("IMG_20231201_123456.jpg", noonish),
        ("Screenshot_20231201-123456.png", noonish),
        ("QQ图片20231201123456.jpg", noonish),
        // Common variants.
        ("VID_20231201_123456.mp4", noonish),
        ("PXL_20231201_123456789.jpg", noonish),
        ("MVIMG_20231201_123456.jpg", noonish),
        ("20231201_123456.jpg", noonish),
        ("Screenshot_2023-12-01-12-34-56-123_com.tencent.mm.jpg", noonish),
        ("Screenshot_20231201_123456_WeChat.jpg", noonish),
        ("Screenshot 2023-12-01 at 12.34.56.png", noonish),
        ("Screen Shot 2023-12-01 at 12.34.56.png", noonish),
        ("微信图片_20231201123456.jpg", noonish),
        ("Snipaste_2023-12-01_12-34-56.png", noonish),
        ("截屏2023-12-01 12.34.56.png", noonish),
        ("img_20231201_123456.JPG", noonish),
        ("microMsg.1701428096000.jpg", 1_701_428_096),
    ])
    func fileNamePatterns(name: String, expected: Int64) throws {
        let date = try #require(CaptureDates.fromFileName(BytePath(name), timeZone: Self.shanghai))
        #expect(date.secondsSinceEpoch == expected)
        #expect(date.source == .fileName)
        #expect(date.utcOffsetSeconds == nil)
    }

    @Test(arguments: [
        "holiday.jpg", "IMG_1234.JPG", "mmexport123.jpg", "mmexport17014280960001.jpg",
        "IMG_20231341_123456.jpg", "IMG_20230230_123456.jpg", "IMG_20231201_253456.jpg",
        "my IMG_20231201_123456.jpg",
        "", "Screenshot_2023.png",
    ])
    func namesWithoutDates(name: String) {
        #expect(CaptureDates.fromFileName(BytePath(name), timeZone: Self.shanghai) == nil)
    }

    @Test func fileNameTimesFollowDaylightSaving() {
        let summer = CaptureDates.fromFileName("IMG_20230701_120000.jpg", timeZone: Self.newYork)
        let winter = CaptureDates.fromFileName("IMG_20231201_120000.jpg", timeZone: Self.newYork)
        #expect(summer?.secondsSinceEpoch == 1_688_227_200)  // EDT, UTC-4
        #expect(winter?.secondsSinceEpoch == 1_701_450_000)  // EST, UTC-5
    }

    @Test func fileNameBytesNeedNotBeUTF8() {
        let name = BytePath(bytes: Array("IMG_20231201_123456_".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(CaptureDates.fromFileName(name, timeZone: Self.shanghai)?.secondsSinceEpoch == Self.noonish)
        // A full path: only the last component counts.
        let path = BytePath(bytes: Array("/in/".utf8) + [0xFF] + Array("/mmexport1701428096000.jpg".utf8))
        #expect(CaptureDates.fromFileName(path, timeZone: Self.shanghai)?.secondsSinceEpoch == 1_701_428_096)
    }

    @Test(arguments: [
        ("2023:12:01 12:34:56", "+08:00", Int64?(noonish), Int?(28_800)),
        ("2023:12:01 12:34:56", nil, noonish, nil),  // no offset: local time in the given zone
        ("2023:12:01 04:34:56", "+00:00", noonish, 0),
        ("2023:12:01 06:34:56", "+0200", noonish, 7200),
        ("2023:12:01 12:34:56.348", nil, noonish, nil),  // subseconds ignored
        ("2023:12:01 12:34:56\0", nil, noonish, nil),  // EXIF's trailing NUL
        ("2023:12:01 12:34:56", "garbage", noonish, nil),  // bad offset: local time
        ("2015-09-27T16:29:28-07:00", nil, 1_443_396_568, -25_200),  // XMP's ISO 8601
        ("2023:12:01 12:34:56xyz", nil, nil, nil),
        ("0000:00:00 00:00:00", nil, nil, nil),
        ("    :  :     :  :  ", nil, nil, nil),
        ("2023:02:30 00:00:00", nil, nil, nil),
        ("2023:12:01 24:00:00", nil, nil, nil),
        ("", nil, nil, nil),
    ])
    func exifDates(text: String, offset: String?, expected: Int64?, expectedOffset: Int?) {
        let date = CaptureDates.fromExif(text, offset: offset, timeZone: Self.shanghai)
        #expect(date?.secondsSinceEpoch == expected)
        if expected != nil {
            #expect(date?.utcOffsetSeconds == expectedOffset)
            #expect(date?.source == .exif)
        }
    }

    @Test func plausibleRange() {
        #expect(CaptureDates.isPlausible(-4_544_208_000, now: Self.now))  // 1826-01-01
        #expect(!CaptureDates.isPlausible(-4_544_208_001, now: Self.now))
        #expect(CaptureDates.isPlausible(1_798_761_599, now: Self.now))  // end of next year
        #expect(!CaptureDates.isPlausible(1_798_761_600, now: Self.now))  // 2027-01-01: after next year
        #expect(CaptureDates.isPlausible(0, now: Self.now))
    }

    @Test func chainTakesFirstPlausible() {
        let exif = CaptureDate(secondsSinceEpoch: Self.noonish, utcOffsetSeconds: 28_800, source: .exif)
        let absurdExif = CaptureDate(secondsSinceEpoch: -6_000_000_000, utcOffsetSeconds: nil, source: .exif)
        let future = CaptureDate(secondsSinceEpoch: 4_000_000_000, utcOffsetSeconds: nil, source: .container)
        let mtime: Int64 = 1_600_000_000

        func resolve(_ embedded: CaptureDate?, _ name: String) -> CaptureDate {
            CaptureDates.resolve(
                embedded: embedded, fileName: BytePath("/inbox/" + name), modificationSeconds: mtime,
                timeZone: Self.shanghai, now: Self.now)
        }
        #expect(resolve(exif, "mmexport1701428096000.jpg") == exif)
        #expect(resolve(absurdExif, "mmexport1701428096000.jpg").source == .fileName)
        #expect(resolve(future, "IMG_20231201_123456.jpg").secondsSinceEpoch == Self.noonish)
        #expect(
            resolve(nil, "IMG_18000101_000000.jpg")
                == CaptureDate(secondsSinceEpoch: mtime, source: .modificationTime))
        #expect(resolve(nil, "IMG_20990101_000000.jpg").source == .modificationTime)
        #expect(
            resolve(nil, "holiday.jpg")
                == CaptureDate(secondsSinceEpoch: mtime, utcOffsetSeconds: nil, source: .modificationTime))
    }

    /// Not even the mtime counts when it is absurd (2099, 1779): the time of filing does.
    @Test(arguments: [Int64(4_070_908_800), Int64(-6_000_000_000)])
    func anAbsurdMtimeGivesWayToTheTimeOfFiling(mtime: Int64) {
        let resolved = CaptureDates.resolve(
            embedded: nil, fileName: "/inbox/holiday.jpg", modificationSeconds: mtime,
            timeZone: Self.shanghai,
            now: Self.now)
        #expect(
            resolved
                == CaptureDate(
                    secondsSinceEpoch: Int64(Self.now.timeIntervalSince1970.rounded(.down)), source: .added))
    }
}

/// The named zones above are Foundation's, with the rules of ICU's data.
extension TimeZone: ZoneOffsets {}

@Suite struct LocalZoneTests {
    /// The helpers read local wall times through glibc; the daemon shows them through
    /// Foundation. Both read `TZ`, else /etc/localtime, so they agree at every instant.
    @Test(arguments: [Int64(0), 1_000_000_000, 1_688_212_800, 1_701_405_296])
    func agreesWithFoundationsCurrentZone(seconds: Int64) {
        let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(LocalZone().secondsFromGMT(for: instant) == TimeZone.current.secondsFromGMT(for: instant))
    }
}
