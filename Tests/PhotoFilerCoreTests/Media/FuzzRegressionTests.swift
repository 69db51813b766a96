import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerHelper
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSandbox
@testable import PhotoFilerSystem

/// What fuzzing the metadata readers found, kept as regression tests (issue 4),
/// and a short deterministic mutation run over the example pictures. The long
/// run is `photofiler-fuzz` (libFuzzer; see Sources/photofiler-fuzz/main.swift).
@Suite struct FuzzRegressionTests {
    /// `FuzzInputs/` beside this file: inputs that once crashed or hung a reader.
    static let inputs: BytePath = BytePath(#filePath).parent.appending("FuzzInputs")
    static let examples: BytePath = BytePath(#filePath).parent.parent.parent.parent.appending(
        "examples/pictures")

    /// Runs one input through the helper's entry point (the sniffer, the completeness
    /// check, the metadata readers) and the date parsers; refusals are fine, a crash
    /// or a hang is not.
    @discardableResult
    static func feed(_ bytes: [UInt8], server: HelperServer, folder: TemporaryFolder) throws -> Bool {
        let path = folder.file("input")
        try writeFile(path, bytes)
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        // The helper's entry point, as the daemon's request reaches it.
        let request = HelperRequest.inspect(id: 1, path: path, size: Int64(bytes.count))
        let answer = try HelperAnswer.decode(server.answer(request.encoded, descriptor: fd))
        let read = answer.outcome == .value
        let name = Array(bytes.prefix(64)).filter { $0 != 0 && $0 != UInt8(ascii: "/") }
        _ = CaptureDates.fromFileName(BytePath(bytes: name))
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        let parts = text.split(separator: "|", maxSplits: 1)
        _ = CaptureDates.fromExif(String(parts.first ?? ""), offset: parts.count > 1 ? String(parts[1]) : nil)
        return read
    }

    static var keptInputs: [String] {
        ((try? Sys.listDirectory(inputs)) ?? []).map(\.name.display).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func keptInputsReplayWithoutCrashing() throws {
        let server = HelperServer { () throws(MediaError) in try LibraryDecoders() }
        let folder = try TemporaryFolder()
        for name in Self.keptInputs {
            let started = Date()
            try Self.feed(try readFile(Self.inputs.appending(name)), server: server, folder: folder)
            #expect(Date().timeIntervalSince(started) < 5, "\(name) took too long")
        }
    }

    /// A few hundred mutations (bit flips, cuts, huge lengths) of each example picture.
    @Test func shortMutationRun() throws {
        let server = HelperServer { () throws(MediaError) in try LibraryDecoders() }
        let folder = try TemporaryFolder()
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var runs = 0
        var readable = 0
        for entry in try Sys.listDirectory(Self.examples) {
            let original = try readFile(Self.examples.appending(entry.name))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + next(6)) {
                    let at = next(bytes.count)
                    switch next(5) {
                    case 0: bytes[at] ^= UInt8(1 << next(8))
                    case 1: bytes[at] = [0x00, 0xFF, 0x7F, 0x80][next(4)]
                    case 2: for k in at..<min(bytes.count, at + 4) { bytes[k] = 0xFF }
                    case 3: bytes.removeSubrange(at..<min(bytes.count, at + 1 + next(512)))
                    default: bytes = Array(bytes.prefix(max(at, 2)))
                    }
                    if bytes.count < 2 { bytes = [0xFF, 0xD8] }
                }
                if try Self.feed(bytes, server: server, folder: folder) { readable += 1 }
                runs += 1
            }
        }
        #expect(runs >= 600)
        #expect(
            readable > runs / 10,
            "most mutations should still reach the metadata readers: \(readable)/\(runs)")
    }
}
