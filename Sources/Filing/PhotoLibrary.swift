import Foundation
import PhotoFilerCatalog
import PhotoFilerSandbox
import PhotoFilerSystem

/// One open library: its layout, its catalog and the filer that writes it. The
/// command line and the daemon both start here. Confined to one queue.
public final class PhotoLibrary {
    public let layout: LibraryLayout
    public let filer: Filer
    public var catalog: Catalog { filer.catalog }
    public var lifecycle: AssetLifecycle { AssetLifecycle(filer: filer) }
    public var reconciler: Reconciler { Reconciler(filer: filer) }
    /// How the catalog was lost ("was missing", "was damaged (…)"), until it is rebuilt
    /// from the files; set only when the library was opened with `rebuildingLostCatalog: false`.
    public private(set) var lostCatalog: String?

    /// Opens the library at `root`, creating its folders and catalog when missing. A
    /// lost catalog is rebuilt from the files now, unless `rebuildingLostCatalog` is
    /// false: the daemon rebuilds it in its start-up reconcile, where SIGTERM is heard.
    public init(root: BytePath, log: Logger, rebuildingLostCatalog: Bool = true) throws(LibraryError) {
        let layout = LibraryLayout(root: root)
        self.layout = layout
        do {
            try layout.create()
        } catch {
            throw .cannotCreate(path: error.path ?? layout.root, reason: error.errno)
        }
        guard Sys.isAccessible(layout.internalFolder, mode: W_OK) else {
            throw .notWritable(path: layout.root)
        }
        let catalog: Catalog
        // The catalog is an index of the files: missing or damaged, it is rebuilt from them.
        let catalogPath = layout.catalogPath
        var lost: String? = nil
        if Self.isMissing(catalogPath), (try? Sys.listDirectory(layout.roll))?.isEmpty == false {
            lost = "was missing"
        }
        do {
            catalog = try Catalog(path: catalogPath)
        } catch {
            guard case .corrupt(_, let reason) = error else { throw .catalog(error) }
            let stamp = Int(Date().timeIntervalSince1970)
            let aside = BytePath(bytes: catalogPath.bytes + Array(".damaged-\(stamp)".utf8))
            do {
                try Sys.rename(catalogPath, to: aside)
                for suffix in ["-wal", "-shm"] {
                    try Sys.unlinkIfPresent(BytePath(bytes: catalogPath.bytes + Array(suffix.utf8)))
                }
                catalog = try Catalog(path: catalogPath)
            } catch {
                throw .catalog(.corrupt(path: catalogPath, reason: reason))
            }
            lost = "was damaged (\(reason)); the damaged file is kept as '\(aside.display)'"
        }
        // What exiv2 and libvips log in the helpers comes back with the answers: debug detail.
        HelperPool.shared.setLibraryLog { @Sendable message in log.debug(message) }
        do {
            filer = try Filer(layout: layout, catalog: catalog, log: log)
        } catch {
            throw .cannotCreate(path: layout.root, reason: error.errno)
        }
        if let lost {
            if rebuildingLostCatalog { rebuildCatalog(lost, log: log) } else { lostCatalog = lost }
        }
    }

    /// Says that the catalog lost as `lostCatalog` says was rebuilt (by the caller's
    /// reconcile, which compared every file: a fresh catalog has no folder stamps).
    public func lostCatalogRebuilt() throws(FilingError) {
        guard let lost = lostCatalog else { return }
        lostCatalog = nil
        let sentence = try rebuiltSentence(lost)
        filer.log.warning(sentence)
    }

    /// True only when the catalog is known to be gone: one that cannot be looked at
    /// (a failing disk) is not missing, and opening it says what is wrong with it.
    private static func isMissing(_ catalogPath: BytePath) -> Bool {
        do {
            return try Sys.statusIfExists(catalogPath) == nil
        } catch {
            return false
        }
    }

    /// Makes a fresh catalog match the Roll and albums, as `check --repair` does, and says so.
    private func rebuildCatalog(_ what: String, log: Logger) {
        do {
            let differences = try reconciler.differences(verifyHashes: false)
            try reconciler.repair(differences)
            let sentence = try rebuiltSentence(what)
            log.warning(sentence)
        } catch {
            log.error(
                "The catalog '\(layout.catalogPath.display)' \(what) and rebuilding it failed: \(error)")
        }
    }

    private func rebuiltSentence(_ what: String) throws(FilingError) -> String {
        let count = try filer.catalogCall { () throws(CatalogError) in try catalog.assetFootprints().count }
        return "The catalog '\(layout.catalogPath.display)' \(what); rebuilt it from the files on disk "
            + "(\(count) asset(s) and their albums); favorites, hidden assets and Recently Deleted were only in the "
            + "catalog and start empty."
    }

    /// The asset a user means by `reference`: an id, or any path of it (its roll
    /// file, an album entry — hard link by inode, symbolic link by target — or a
    /// copy anywhere, by content); nil when nothing of the library is it. A path that
    /// leads to no file, or to a folder or device, is `.notAnAssetFile`.
    public func asset(matching reference: BytePath) throws(FilingError) -> AssetRecord? {
        let text = reference.display
        if let id = AssetID(text), reference.isValidUTF8 {
            return try filer.catalogCall { () throws(CatalogError) in try catalog.asset(id: id) }
        }
        let path = LibraryLayout.absolute(reference)
        let found = try filer.systemCall(path) { () throws(SystemError) in try Sys.statusIfExists(path) }
        guard let status = found else { throw .notAnAssetFile(path: reference, kind: nil) }
        if status.isSymbolicLink {
            let target = try filer.systemCall(path) { () throws(SystemError) in try Sys.readLink(path) }
            let absolute = LibraryLayout.normalize(target.isAbsolute ? target : path.parent.appending(target))
            if let relative = layout.relative(absolute), let asset = try asset(rollPath: relative) {
                return asset
            }
            return try assetByContent(absolute, given: reference)
        }
        if let relative = layout.relative(path), let asset = try asset(rollPath: relative) { return asset }
        return try assetByContent(path, given: reference)
    }

    /// The asset at a roll path: its still, or a Live Photo's paired video.
    private func asset(rollPath: BytePath) throws(FilingError) -> AssetRecord? {
        try filer.catalogCall { () throws(CatalogError) -> AssetRecord? in
            if let asset = try catalog.asset(rollPath: rollPath) { return asset }
            return try catalog.asset(liveVideoPath: rollPath)
        }
    }

    /// The asset whose bytes the file at `path` holds (`reference`, the path as the
    /// user gave it, for messages: a symbolic link's target may be a dead end).
    private func assetByContent(_ path: BytePath, given reference: BytePath) throws(FilingError)
        -> AssetRecord?
    {
        let found = try filer.systemCall(path) { () throws(SystemError) in
            try Sys.statusIfExists(path, followLinks: true)
        }
        guard let status = found else { throw .notAnAssetFile(path: reference, kind: nil) }
        guard status.isRegularFile else { throw .notAnAssetFile(path: reference, kind: status.kind) }
        let hash = try filer.systemCall(path) { () throws(SystemError) -> String in
            let fd = try Sys.openForReading(path)
            defer { fd.close() }
            return try ContentHasher.hash(fd)
        }
        return try filer.catalogCall { () throws(CatalogError) in try catalog.owners(ofContent: hash).either }
    }
}

/// Why a library could not be opened.
public enum LibraryError: Error, Sendable, CustomStringConvertible {
    case cannotCreate(path: BytePath, reason: Errno)
    case notWritable(path: BytePath)
    case catalog(CatalogError)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason) where reason == .notDirectory || reason == .exists:
            return
                "The library cannot be made at '\(path.display)': it or a folder above it is a file; choose another with --library, or move that file away."
        case .cannotCreate(let path, let reason):
            return
                "The library folder '\(path.display)' cannot be created (\(reason.message)); choose another with --library or fix its permissions."
        case .notWritable(let path):
            return
                "The library '\(path.display)' is not writable; fix its permissions or choose another with --library."
        case .catalog(let error):
            return error.description
        }
    }
}
