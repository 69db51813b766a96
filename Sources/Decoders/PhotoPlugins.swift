import CVips
import Glibc
import PhotoFilerSystem
import Synchronization

/// The plug-ins `photofiler-helper` loads: libvips' HEIF module and libheif's HEVC and AV1
/// decoders, and nothing else. On their own, libvips loads every module it has
/// (ImageMagick, poppler, OpenSlide, JPEG XL: loaders `vips_block_untrusted_set`
/// refuses, or formats photofiler does not file) and libheif every plugin, the
/// x265 and AOM encoders too. Each helper paid for them on every start: 85–99 ms
/// of CPU with them, 68–80 ms without (medians of 11 starts, on Debian 12 with
/// libvips 8.14 and libheif 1.19 from bookworm-backports).
///
/// `restrict()` points each library's own search at a folder that does not exist
/// and notes which files to load instead; `DecoderLibraries.start()` loads those
/// after initialising the libraries. A process that never calls it (the tests
/// that read in process) loads what the libraries load on their own, and so does
/// a library whose plug-in folder could not be listed.
///
/// An inherited `VIPSHOME` does not move the search: `vips_init` sets it in its
/// own process (`VIPSHOME=/usr`, from its guessed prefix), so a helper started
/// by a process that read pictures itself inherits it, and the modules that
/// match the mapped libvips are the ones beside it, whatever a variable says.
package enum PhotoPlugins {
    /// Where libvips and libheif look for plug-ins on their own once restricted.
    static let nowhere = "/nonexistent/photofiler-plugins"
    /// libheif's decoders photofiler needs, HEVC (HEIC) and AV1 (AVIF), by plugin
    /// file name (`libheif-NAME.so`).
    static let heifDecoders: Set<String> = ["libde265", "dav1d", "aomdec", "ffmpegdec"]
    /// libvips' modules photofiler needs (`vips-NAME.so`).
    static let vipsModules: Set<String> = ["heif"]

    /// The files to load, once `restrict()` has run.
    private static let plan = Mutex<(vips: [BytePath], heif: [BytePath])>(([], []))

    /// Call first thing in a process that is still single-threaded (it sets
    /// environment variables): the helper's `main`.
    package static func restrict() {
        let vips = vipsModuleFiles()
        let heif = heifPluginFiles()
        if vips != nil { ProcessEnvironment.setBeforeThreads("VIPSHOME", nowhere) }
        if heif != nil { ProcessEnvironment.setBeforeThreads("LIBHEIF_PLUGIN_PATH", nowhere) }
        plan.withLock { $0 = (vips ?? [], heif ?? []) }
    }

    /// Loads libvips' chosen modules (after `vips_init`), when restricted.
    static func loadVipsModules() {
        for path in plan.withLock({ $0.vips }) {
            // As vips_init does; the module makes itself resident and registers its loaders.
            _ = path.withCString { g_module_open($0, G_MODULE_BIND_LAZY) }  // not loaded: its files say so
        }
    }

    /// Loads libheif's chosen plugins (after `heif_init`), when restricted.
    static func loadHeifPlugins() {
        for path in plan.withLock({ $0.heif }) {
            var plugin: UnsafePointer<heif_plugin_info>?
            _ = path.withCString { heif_load_plugin($0, &plugin) }  // not loaded: its files say so
        }
    }

    /// `libheif-libde265.so` and the other decoders, not the encoders.
    static func wanted(heifPlugin name: BytePath) -> Bool {
        stem(of: name, prefix: "libheif-").map(heifDecoders.contains) ?? false
    }

    /// `vips-heif.so`, not the other modules.
    static func wanted(vipsModule name: BytePath) -> Bool {
        stem(of: name, prefix: "vips-").map(vipsModules.contains) ?? false
    }

    /// The wanted modules of the folder vips_init reads ("vips-modules-MAJOR.MINOR"
    /// beside the libvips that is mapped: not `vips_guess_libdir`, which keeps its
    /// first answer and so would pin the folder before VIPSHOME is set); nil when it
    /// could not be looked at.
    private static func vipsModuleFiles() -> [BytePath]? {
        var object = photofiler_loaded_objects()
        while let loaded = object {
            if let name = loaded.pointee.l_name {
                let path = BytePath(cString: name)
                if path.lastComponent.bytes.starts(with: Array("libvips.so".utf8)) {
                    let folder = path.parent.appending("vips-modules-\(vips_version(0)).\(vips_version(1))")
                    return files(in: folder, wanted: wanted(vipsModule:))
                }
            }
            object = UnsafePointer(loaded.pointee.l_next)
        }
        return nil
    }

    /// The wanted plugins of libheif's plugin folders; nil when one could not be looked at.
    private static func heifPluginFiles() -> [BytePath]? {
        guard let folders = heif_get_plugin_directories() else { return nil }
        defer { heif_free_plugin_directories(folders) }
        var found: [BytePath] = []
        var index = 0
        while let folder = folders[index] {
            guard let files = files(in: BytePath(cString: folder), wanted: wanted(heifPlugin:)) else {
                return nil
            }
            found += files
            index += 1
        }
        return found
    }

    /// "NAME" of "PREFIX" + "NAME" + ".so", compared as bytes.
    private static func stem(of name: BytePath, prefix: String) -> String? {
        let bytes = name.bytes
        let head = Array(prefix.utf8)
        let tail = Array(".so".utf8)
        guard bytes.count > head.count + tail.count, bytes.starts(with: head),
            bytes.suffix(tail.count).elementsEqual(tail)
        else { return nil }
        return String(validating: bytes[head.count..<(bytes.count - tail.count)], as: UTF8.self)
    }

    /// The wanted files of a folder: none when it does not exist, nil when it could
    /// not be listed.
    private static func files(in folder: BytePath, wanted: (BytePath) -> Bool) -> [BytePath]? {
        do {
            return try Sys.listDirectory(folder).filter { wanted($0.name) }.map { folder.appending($0.name) }
        } catch  where error.errno == .noSuchFile {
            return []
        } catch {
            return nil
        }
    }
}
