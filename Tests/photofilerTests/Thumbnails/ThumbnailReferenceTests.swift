import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// Every still image of the fixtures (the corpus and the phone shapes) through the
/// built binary, `save` then `thumb --size 256|1024`, held to libvips' own thumbnail
/// of the same file: the same displayed size within a pixel, the pixels alike by
/// `ThumbnailReference`'s measure, and the same answer to "can it be decoded".
@Suite
struct ThumbnailReferenceTests {
    /// Files neither photofiler nor libvips decodes, and why.
    static let expectedRefusals: [String: String] = [
        "png-idat-not-zlib.png": "its pixel data is no zlib stream (libpng: incorrect header check)"
    ]

    /// The still images: the corpus's good ones (its videos are held to ffmpeg's
    /// frame elsewhere) and every file of the phones folder's MANIFEST.
    static let files: [BytePath] =
        CorpusManifest.good.filter { !$0.mimeType.hasPrefix("video/") }.map(\.path)
        + PhonesManifest.files.map(Fixtures.phones)

    @Test func everyStillImageIsLibvipsPicture() throws {
        let library = try TestLibrary()
        let scratch = library.folder.file("scratch")
        try Sys.makeDirectory(scratch)
        let saved = try library.run(
            bytes: ["save"] + Self.files,
            environment: ["XDG_CACHE_HOME": library.folder.file("cache").display])
        try #require(saved.status == 0, "\(saved.stderr)")
        let assets = try library.list()
        #expect(assets.count == Self.files.count)
        var worst = (file: "", edge: 0, measure: 0.0)
        for file in Self.files {
            let name = file.lastComponent.display
            let asset = try #require(
                assets.first { $0["originalName"] as? String == name }, "\(name) is not listed")
            let id = String(try #require(assetID(asset)))
            for edge in [256, 1024] {
                let ours = scratch.appending("\(id)-\(edge).png")
                let reference = scratch.appending("\(id)-\(edge)-reference.png")
                let thumb = try library.run("thumb", id, "--size", String(edge), "-o", ours.display)
                let referenceDecodes = try ThumbnailReference.make(of: file, edge: edge, into: reference)
                guard referenceDecodes else {
                    #expect(Self.expectedRefusals[name] != nil, "libvips cannot decode \(name)")
                    #expect(
                        thumb.status == 1, "\(name): libvips cannot decode it but thumb says \(thumb.status)")
                    continue
                }
                #expect(Self.expectedRefusals[name] == nil, "libvips decodes \(name)")
                guard thumb.status == 0 else {
                    Issue.record("\(name) at \(edge): libvips decodes it, thumb said: \(thumb.stderr)")
                    continue
                }
                let (mine, theirs) = (try PNGFile(try readFile(ours)), try PNGFile(try readFile(reference)))
                #expect(
                    abs(mine.width - theirs.width) <= 1 && abs(mine.height - theirs.height) <= 1,
                    "\(name) at \(edge): \(mine.width)x\(mine.height), libvips \(theirs.width)x\(theirs.height)"
                )
                let measure = ThumbnailReference.difference(
                    try ThumbnailReference.reduced(ours, scratch: scratch),
                    try ThumbnailReference.reduced(reference, scratch: scratch))
                #expect(measure < ThumbnailReference.bound, "\(name) at \(edge): \(measure)")
                if measure > worst.measure { worst = (name, edge, measure) }
            }
        }
        print("Thumbnails against libvips: worst \(worst.file) at \(worst.edge) px, \(worst.measure) of 255")
    }

    /// A complete PNG whose pixel data is no zlib stream: libpng's error is "cannot
    /// be decoded", not a grey picture.
    @Test func aPNGWhosePixelsAreNoZlibStreamHasNoThumbnail() throws {
        let library = try TestLibrary()
        let saved = try library.run(
            bytes: ["save", Fixtures.phones("png-idat-not-zlib.png")],
            environment: ["XDG_CACHE_HOME": library.folder.file("cache").display])
        try library.expectFiledWithoutThumbnail(saved)
    }

    /// The size `list` shows is the coded one as displayed, whatever the EXIF says.
    @Test(arguments: [
        ("immich-10bit-HDR-P3-nclx.avif", 3681, 5594), ("heic-exif-size-differs.heic", 300, 200),
        ("iphone15pro-grid-irot270-exif6.heic", 536, 714), ("grid-clap.heic", 1008, 756),
        ("avif-422-1617x1080.avif", 1617, 1080),
    ])
    func theListedSizeIsTheCodedOneAsShown(file: String, width: Int, height: Int) throws {
        let library = try TestLibrary()
        try library.save([Fixtures.phones(file)])
        let asset = try #require(try library.list().first)
        #expect((asset["width"] as? Int, asset["height"] as? Int) == (width, height))
    }
}
