import Foundation
import LivePhotoFixtures
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The Live Photo identifiers and motion-photo videos the readers find (photofiler(1) "Live Photos").
@Suite struct LivePhotoReaderTests {
    static let identifier = "4F2A9C1E-7B3D-4E8A-9F10-2C6B5D8E1A37"

    // MARK: The Apple MakerNote walk, on crafted bytes

    @Test func makerNoteIdentifierIsFound() {
        let note = LivePhotoFixtures.appleMakerNote(contentIdentifier: Self.identifier)
        #expect(AppleMakerNote.contentIdentifier(in: note) == Self.identifier)
    }

    @Test func shortIdentifierInsideTheEntryIsFound() {
        // Four bytes or fewer live in the entry's value field (TIFF's rule).
        var note = Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D, 0, 1]
        note += [0x00, 0x11, 0x00, 0x02, 0, 0, 0, 4] + Array("ABC".utf8) + [0]
        #expect(AppleMakerNote.contentIdentifier(in: note) == "ABC")
    }

    @Test func damagedMakerNotesHaveNoIdentifier() {
        let good = LivePhotoFixtures.appleMakerNote(contentIdentifier: Self.identifier)
        var wrongSignature = good
        wrongSignature[0] = UInt8(ascii: "B")
        var littleEndian = good
        littleEndian[12] = UInt8(ascii: "I")
        littleEndian[13] = UInt8(ascii: "I")
        var offsetPastEnd = good
        offsetPastEnd[14 + 2 + 12 + 8..<14 + 2 + 12 + 12] = [0x7F, 0xFF, 0xFF, 0xFF]
        var hugeCount = good
        hugeCount[14..<16] = [0xFF, 0xFF]
        var wrongType = good
        wrongType[14 + 2 + 12 + 3] = 7
        var unprintable = good
        unprintable[unprintable.count - 5] = 0x07
        for bytes in [
            [], Array(good.prefix(13)), Array(good.prefix(30)), wrongSignature, littleEndian, offsetPastEnd,
            hugeCount, wrongType, unprintable, Array(good.dropLast(10)),
        ] {
            #expect(AppleMakerNote.contentIdentifier(in: bytes) == nil)
        }
    }

    /// Every prefix and a few thousand single-byte changes: never a crash, never a read past the end.
    @Test func everyCutAndFlipIsSafe() {
        let good = LivePhotoFixtures.appleMakerNote(contentIdentifier: Self.identifier)
        for length in 0...good.count { _ = AppleMakerNote.contentIdentifier(in: Array(good.prefix(length))) }
        for index in good.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var bytes = good
                bytes[index] = value
                _ = AppleMakerNote.contentIdentifier(in: bytes)
            }
        }
    }

    // MARK: Samsung's trailer, on crafted bytes

    /// `image`, then a `MotionPhoto_Data` block holding `video`, then the SEF directory.
    static func samsungFile(image: [UInt8], video: [UInt8]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        let name = Array("MotionPhoto_Data".utf8)
        let block = [0, 0, 0x30, 0x0A] + le32(name.count) + name + video
        let directory =
            Array("SEFH".utf8) + le32(106) + le32(1) + [0, 0, 0x30, 0x0A] + le32(block.count)
            + le32(block.count)
        return image + block + directory + le32(directory.count) + Array("SEFT".utf8)
    }

    static let fakeVideo: [UInt8] =
        [0, 0, 0, 16] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 9, count: 500)

    @Test func samsungTrailerBlocksAreFound() {
        let file = Self.samsungFile(image: [UInt8](repeating: 1, count: 1000), video: Self.fakeVideo)
        let blocks = MotionPhoto.samsungBlocks(tail: file, fileSize: Int64(file.count))
        #expect(blocks.count == 1)
        let block = blocks[0]
        let header = Array(file[Int(block.offset)..<Int(block.offset) + MotionPhoto.samsungHeaderSize])
        let video = MotionPhoto.samsungVideo(in: block, header: header)
        #expect(video?.offset == Int64(1000 + 8 + 16))
        #expect(video?.length == Int64(Self.fakeVideo.count))
    }

    @Test func damagedSamsungTrailersAreSafe() {
        let file = Self.samsungFile(image: [UInt8](repeating: 1, count: 100), video: Self.fakeVideo)
        for cut in 0...64 {
            let tail = Array(file.suffix(cut))
            for block in MotionPhoto.samsungBlocks(tail: tail, fileSize: Int64(file.count)) {
                #expect(block.offset >= 0 && block.offset + block.size <= Int64(file.count))
            }
        }
        for index in (file.count - 40)..<file.count {
            for value: UInt8 in [0x00, 0xFF, 0x7F] {
                var bytes = file
                bytes[index] = value
                for block in MotionPhoto.samsungBlocks(tail: bytes, fileSize: Int64(bytes.count)) {
                    #expect(block.offset >= 0 && block.offset + block.size <= Int64(bytes.count))
                }
            }
        }
    }

    @Test func containerDirectoryRangeCountsFromTheEnd() {
        let announced = MotionPhoto.Announcement(
            flagged: true,
            items: [
                .init(semantic: "Primary", length: 0, padding: 10),
                .init(semantic: "MotionPhoto", length: 5000),
            ])
        let range = MotionPhoto.range(announced: announced, fileSize: 20000)
        #expect(range?.offset == 15000)
        #expect(range?.length == 5000)
        let tooLong = MotionPhoto.Announcement(microVideoOffset: 30000)
        #expect(MotionPhoto.range(announced: tooLong, fileSize: 20000) == nil)
    }

    // MARK: Through the reader, on files made as phones make them

    static func read(_ bytes: [UInt8], named name: String, in folder: TemporaryFolder) throws -> MediaInfo {
        let path = folder.file(name)
        try writeFile(path, bytes)
        return try Corpus.read(path, with: try MediaReader(decoders: try LibraryDecoders()))
    }

    static var sampleJPEG: [UInt8] {
        get throws {
            try readFile(
                BytePath(#filePath).parent.parent.parent.parent.appending("examples/pictures/sunset.jpg"))
        }
    }

    @Test func appleStillCarriesItsIdentifier() throws {
        let folder = try TemporaryFolder()
        let still = try LivePhotoFixtures.appleStill(
            try Self.sampleJPEG, contentIdentifier: Self.identifier, taken: "2023:12:01 12:34:56", in: folder)
        let info = try Self.read(still, named: "IMG_0001.JPG", in: folder)
        #expect(info.live.contentIdentifier == Self.identifier)
        #expect(!info.subtypes.contains("live"))
    }

    @Test func quickTimeKeyIsTheVideosIdentifier() throws {
        let folder = try TemporaryFolder()
        let movie = try LivePhotoFixtures.movie(
            contentIdentifier: Self.identifier, created: "2023-12-01T12:34:56+0100", in: folder)
        let info = try Self.read(movie, named: "IMG_0001.MOV", in: folder)
        #expect(info.mediaType == .video)
        #expect(info.live.contentIdentifier == Self.identifier)
        let plain = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:56+0100", in: folder)
        #expect(try Self.read(plain, named: "plain.MOV", in: folder).live.contentIdentifier == nil)
    }

    @Test func googleMotionPhotoIsLiveWithItsVideosRange() throws {
        let folder = try TemporaryFolder()
        let mp4 = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:56+0100", container: "mp4", in: folder)
        let motion = try LivePhotoFixtures.googleMotionPhoto(try Self.sampleJPEG, video: mp4, in: folder)
        let info = try Self.read(motion, named: "PXL_20231201_123456789.MP.jpg", in: folder)
        #expect(info.subtypes.contains("live"))
        #expect(info.live.embeddedVideo?.length == Int64(mp4.count))
        #expect(info.live.embeddedVideo?.offset == Int64(motion.count - mp4.count))
        #expect(info.live.embeddedVideo?.duration.map { abs($0 - 1) < 0.2 } == true, "ffmpeg's clip is 1 s")
    }

    /// The newer Google form: a `Container:Directory` whose `MotionPhoto` item gives
    /// the video's length (an XMP packet as a Pixel writes it, read by exiv2).
    @Test func containerDirectoryMotionPhotoIsLive() throws {
        let folder = try TemporaryFolder()
        let mp4 = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:56+0100", container: "mp4", in: folder)
        let item = { (mime: String, semantic: String, length: Int) in
            "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Mime=\"\(mime)\" Item:Semantic=\"\(semantic)\" "
                + "Item:Length=\"\(length)\" Item:Padding=\"0\"/></rdf:li>"
        }
        let xmp =
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:GCamera=\"http://ns.google.com/photos/1.0/camera/\" "
            + "xmlns:Container=\"http://ns.google.com/photos/1.0/container/\" "
            + "xmlns:Item=\"http://ns.google.com/photos/1.0/container/item/\" GCamera:MotionPhoto=\"1\">"
            + "<Container:Directory><rdf:Seq>" + item("image/jpeg", "Primary", 0)
            + item("video/mp4", "MotionPhoto", mp4.count) + "</rdf:Seq></Container:Directory>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta>"
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let jpeg = try Self.sampleJPEG
        let segment =
            [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let file = Array(jpeg.prefix(2)) + segment + jpeg.dropFirst(2) + mp4
        let info = try Self.read(file, named: "PXL_20231201_123456789.MP.jpg", in: folder)
        #expect(info.subtypes.contains("live"))
        #expect(info.live.embeddedVideo?.offset == Int64(file.count - mp4.count))
        #expect(info.live.embeddedVideo?.length == Int64(mp4.count))
    }

    @Test func samsungMotionPhotoIsLive() throws {
        let folder = try TemporaryFolder()
        let mp4 = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:56+0100", container: "mp4", in: folder)
        let jpeg = try Self.sampleJPEG
        let file = Self.samsungFile(image: jpeg, video: mp4)
        let info = try Self.read(file, named: "20231201_123456.jpg", in: folder)
        #expect(info.subtypes.contains("live"))
        #expect(info.live.embeddedVideo?.offset == Int64(jpeg.count + 8 + 16))
        #expect(info.live.embeddedVideo?.length == Int64(mp4.count))
    }

    @Test func plainJPEGIsNoLivePhoto() throws {
        let folder = try TemporaryFolder()
        let info = try Self.read(try Self.sampleJPEG, named: "plain.jpg", in: folder)
        #expect(info.live.isEmpty)
        #expect(!info.subtypes.contains("live"))
    }
}
