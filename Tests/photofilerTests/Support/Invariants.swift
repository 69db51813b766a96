import Foundation
import Glibc
import TestSupport

@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// The durability invariants, checked after every crash or fault (issue 4):
///
/// - every original content is either still in an inbox or in the Roll exactly once;
/// - no roll file is partial: each is one of the originals and matches its catalog row;
/// - every album entry links to a roll file of an asset that is a member of that album;
/// - `.photofiler/tmp` is empty (call this after the next start or `check --repair`);
/// - `photofiler check` exits 0.
///
/// `check` returns every violation as one sentence; a test expects the list empty.
struct Invariants {
    let library: BytePath
    let inboxes: [BytePath]
    /// SHA-256 (lowercase hex) of every original content the test put in.
    let originals: Set<String>

    /// What one check looked at.
    struct Report: CustomStringConvertible {
        var violations: [String] = []
        /// Regular files hashed in the inboxes and in the Roll.
        var inboxFiles = 0
        var rollFiles = 0
        var albumEntries = 0
        var filesChecked: Int { inboxFiles + rollFiles }
        var isClean: Bool { violations.isEmpty }
        var description: String {
            "\(rollFiles) roll file(s), \(inboxFiles) inbox file(s), \(albumEntries) album entr(ies) checked"
                + (violations.isEmpty ? "" : "; violations:\n  " + violations.joined(separator: "\n  "))
        }
    }

    func check(runCheckCommand: Bool = true) throws -> Report {
        var report = Report()
        let layout = LibraryLayout(root: library)

        // Inboxes: content still waiting (never following links).
        var inInbox: [String: Int] = [:]
        for inbox in inboxes {
            for file in Self.regularFiles(under: inbox, excluding: library) {
                guard let hash = Self.hash(file) else { continue }
                inInbox[hash, default: 0] += 1
                report.inboxFiles += 1
            }
        }

        // The Roll: every file once, each one of the originals.
        var rollByHash: [String: [BytePath]] = [:]
        var rollHashByPath: [BytePath: String] = [:]
        var rollByInode: [UInt64: BytePath] = [:]
        for file in Self.regularFiles(under: layout.roll, excluding: nil) {
            report.rollFiles += 1
            guard let hash = Self.hash(file) else {
                report.violations.append("The roll file '\(file.display)' cannot be read.")
                continue
            }
            rollByHash[hash, default: []].append(file)
            rollHashByPath[file] = hash
            if let status = try? Sys.status(file) { rollByInode[status.inode] = file }
            if !originals.contains(hash) {
                report.violations.append(
                    "The roll file '\(file.display)' is none of the originals (partial or corrupt).")
            }
        }
        for (hash, files) in rollByHash where files.count > 1 {
            report.violations.append(
                "The content \(hash.prefix(12)) is in the Roll \(files.count) times: \(files.map(\.display))."
            )
        }
        for original in originals {
            let rolled = rollByHash[original]?.count ?? 0
            if rolled == 0 && inInbox[original, default: 0] == 0 {
                report.violations.append(
                    "The original \(original.prefix(12)) is lost: in no inbox and not in the Roll.")
            }
        }

        // The catalog (through the CLI, as a user sees it).
        let listed = try Binary.run("list", "--library", library.display, "--json")
        guard listed.status == 0, let assets = try listed.json() as? [[String: Any]] else {
            report.violations.append("'photofiler list --json' failed (\(listed.status)): \(listed.stderr)")
            return report
        }
        var assetByPath: [BytePath: [String: Any]] = [:]
        for asset in assets {
            let path: BytePath
            if let encoded = asset["pathBase64"] as? String, let data = Data(base64Encoded: encoded) {
                path = BytePath(bytes: Array(data))
            } else {
                path = BytePath(asset["path"] as? String ?? "")
            }
            guard asset["deleted"] == nil || asset["deleted"] is NSNull else { continue }
            assetByPath[path] = asset
            let recorded = asset["hash"] as? String ?? ""
            guard let actual = rollHashByPath[path] else {
                report.violations.append("Asset \(asset["id"] ?? "?") has no roll file at '\(path.display)'.")
                continue
            }
            if actual != recorded {
                report.violations.append(
                    "The roll file '\(path.display)' hashes to \(actual.prefix(12)), its row says \(recorded.prefix(12))."
                )
            }
        }
        for path in rollHashByPath.keys where assetByPath[path] == nil {
            report.violations.append("The roll file '\(path.display)' has no catalog row.")
        }

        // Albums: each entry is a link to a roll file of a member asset.
        for folder in (try? Sys.listDirectory(layout.albums)) ?? [] {
            let folderPath = layout.albums.appending(folder.name)
            guard (try? Sys.status(folderPath))?.isDirectory == true else {
                report.violations.append("'\(folderPath.display)' is not a folder.")
                continue
            }
            let albumName = folder.name.display
            for entry in (try? Sys.listDirectory(folderPath)) ?? [] {
                report.albumEntries += 1
                let entryPath = folderPath.appending(entry.name)
                guard let rollFile = resolve(entryPath, byInode: rollByInode, layout: layout) else {
                    report.violations.append("The album entry '\(entryPath.display)' links to no roll file.")
                    continue
                }
                guard let asset = assetByPath[rollFile] else {
                    report.violations.append(
                        "The album entry '\(entryPath.display)' links to a roll file without a row.")
                    continue
                }
                let albums = asset["albums"] as? [String] ?? []
                if !albums.contains(albumName) {
                    report.violations.append(
                        "The album entry '\(entryPath.display)' belongs to asset \(asset["id"] ?? "?"), which is not a member of \(albumName) (\(albums))."
                    )
                }
            }
        }

        // Temporary files: gone once the library has been started again.
        let leftovers = (try? Sys.listDirectory(layout.temporary)) ?? []
        if !leftovers.isEmpty {
            report.violations.append(
                "Temporary files left in '\(layout.temporary.display)': \(leftovers.map(\.name.display)).")
        }

        if runCheckCommand {
            let checked = try Binary.run("check", "--library", library.display)
            if checked.status != 0 {
                report.violations.append(
                    "'photofiler check' exited \(checked.status): \(checked.stdout)\(checked.stderr)")
            }
        }
        return report
    }

    private func resolve(_ entry: BytePath, byInode: [UInt64: BytePath], layout: LibraryLayout) -> BytePath? {
        guard let status = try? Sys.status(entry) else { return nil }
        if status.isSymbolicLink {
            guard let target = try? Sys.readLink(entry), !target.isAbsolute else { return nil }
            let resolved = LibraryLayout.normalize(entry.parent.appending(target))
            guard resolved.isWithin(layout.roll), (try? Sys.status(resolved))?.isRegularFile == true else {
                return nil
            }
            return resolved
        }
        return status.isRegularFile ? byInode[status.inode] : nil
    }

    // MARK: Files

    /// Every regular file below `root` (links not followed), leaving out `excluding`.
    static func regularFiles(under root: BytePath, excluding: BytePath?) -> [BytePath] {
        TestSupport.regularFiles(under: root, excluding: excluding)
    }

    /// SHA-256 of a file's bytes, lowercase hex; nil when it cannot be read.
    static func hash(_ path: BytePath) -> String? { try? sha256(of: path) }

    static func hash(bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { ContentHasher.hash($0) }
    }
}
