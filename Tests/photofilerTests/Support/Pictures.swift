import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem
import TestSupport

/// Small real pictures for end-to-end tests, each with bytes of its own.
enum Pictures {
    /// A real 5.8 KB JPEG (`examples/pictures/sunset.jpg`).
    static let sampleJPEG: [UInt8] = {
        let path = Binary.packageRoot.appending("examples/pictures/sunset.jpg")
        guard let bytes = try? readFile(path), bytes.starts(with: [0xFF, 0xD8]) else {
            fatalError("The sample picture '\(path.display)' is missing or not a JPEG.")
        }
        return bytes
    }()

    /// A valid JPEG whose bytes are unique to `index` and `tag`: the sample picture
    /// with a comment (COM) segment saying so right after its start marker. Its end
    /// marker stays last, as the completeness check wants, and it takes microseconds
    /// to make, so thousands of distinct assets cost nothing.
    static func uniqueJPEG(_ index: Int, tag: String = "") -> [UInt8] {
        let text = Array("photofiler test picture \(tag)#\(index)".utf8)
        let length = text.count + 2
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text
            + sampleJPEG[2...]
    }

    /// SHA-256 in lowercase hex: the asset's identity as `list --json` shows it.
    static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { ContentHasher.hash($0) }
    }

    /// `uniqueJPEG` for the fault tests' numbering.
    static func unique(_ n: Int) -> [UInt8] { uniqueJPEG(n, tag: "fault") }

    /// Writes `bytes` next to `destination`, then renames it in (one IN_MOVED_TO).
    static func drop(_ bytes: [UInt8], at destination: BytePath, staging: BytePath) throws {
        let staged = staging.appending("staged-\(getpid())-\(destination.lastComponent.display)")
        try writeFile(staged, bytes)
        try Sys.rename(staged, to: destination)
    }

    /// Hash of bytes, as the Roll and the catalog record it.
    static func hash(_ bytes: [UInt8]) -> String { sha256(bytes) }
}

/// Root-only machinery of the fault tests: mounts, sysctls.
enum Machine {
    static var isRoot: Bool { geteuid() == 0 }

    /// Runs a command to the end; its exit status and combined output.
    @discardableResult
    static func shell(_ command: String) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>&1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return (127, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Mounts a tmpfs of `size` (e.g. "2m") on `folder`; nil (with the reason) when it cannot.
    static func mountTmpfs(_ folder: BytePath, size: String) -> String? {
        _ = try? Sys.makeDirectories(folder)
        let result = shell("mount -t tmpfs -o size=\(size),mode=0755 photofiler-test '\(folder.display)'")
        return result.status == 0 ? nil : "mount -t tmpfs failed: \(result.output)"
    }

    static func unmount(_ folder: BytePath) {
        shell("umount -l '\(folder.display)'")
    }

    static func readSysctl(_ name: String) -> String? {
        let path = "/proc/sys/" + name.replacingOccurrences(of: ".", with: "/")
        guard let bytes = try? readFile(BytePath(path)) else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes a sysctl; false when that is refused.
    @discardableResult
    static func writeSysctl(_ name: String, _ value: String) -> Bool {
        let path = "/proc/sys/" + name.replacingOccurrences(of: ".", with: "/")
        guard let file = fopen(path, "w") else { return false }
        let written = fputs(value + "\n", file) >= 0
        return fclose(file) == 0 && written
    }
}
