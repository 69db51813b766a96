import Foundation
import Glibc
import TestSupport

@testable import PhotoFilerCore

/// Picture bytes for the fault tests: real JPEGs from `examples/pictures`, and as
/// many distinct ones as a burst needs (a COM segment after SOI makes each unique
/// while it stays a whole, valid JPEG).
enum Pictures {
    static let example: [UInt8] = try! readFile(
        Binary.packageRoot.appending("examples/pictures/wx_camera_1704441600000.jpg"))

    /// A valid JPEG whose bytes differ from every other `unique(n)`.
    static func unique(_ n: Int, base: [UInt8] = example) -> [UInt8] {
        let text = Array("photofiler fault test \(n)".utf8)
        let length = UInt16(text.count + 2)
        var bytes = Array(base[0..<2])  // SOI
        bytes += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text
        bytes += base[2...]
        return bytes
    }

    /// Writes `bytes` next to `destination`, then renames it in (one IN_MOVED_TO).
    static func drop(_ bytes: [UInt8], at destination: BytePath, staging: BytePath) throws {
        let staged = staging.appending("staged-\(getpid())-\(destination.lastComponent.display)")
        try writeFile(staged, bytes)
        try Sys.rename(staged, to: destination)
    }

    /// Hash of bytes, as the Roll and the catalog record it.
    static func hash(_ bytes: [UInt8]) -> String { Invariants.hash(bytes: bytes) }
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
