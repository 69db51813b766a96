import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerSystem

/// Which plug-in files a helper loads, by name (the helper's maps are checked in
/// HelperPoolTests).
@Suite struct PhotoPluginsTests {
    @Test(arguments: [
        ("libheif-libde265.so", true), ("libheif-dav1d.so", true), ("libheif-aomdec.so", true),
        ("libheif-ffmpegdec.so", true), ("libheif-x265.so", false), ("libheif-aomenc.so", false),
        ("libheif-rav1e.so", false), ("libheif-libde265.so.1", false), ("libde265.so", false),
    ])
    func heifPlugins(name: String, wanted: Bool) {
        #expect(PhotoPlugins.wanted(heifPlugin: BytePath(name)) == wanted)
    }

    @Test(arguments: [
        ("vips-heif.so", true), ("vips-magick.so", false), ("vips-poppler.so", false),
        ("vips-openslide.so", false), ("vips-jxl.so", false), ("vips-heif.so.bak", false),
    ])
    func vipsModules(name: String, wanted: Bool) {
        #expect(PhotoPlugins.wanted(vipsModule: BytePath(name)) == wanted)
    }
}
