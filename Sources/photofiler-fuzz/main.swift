import Foundation
import Glibc
import PhotoFilerDecoders
import PhotoFilerHelper
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem

// photofiler-fuzz: feeds arbitrary bytes to the helper's entry point, the one
// place strangers' bytes are parsed (`HelperServer.answer`: type sniffer,
// completeness check, exiv2/libvips/libavformat metadata, the thumbnails' image
// and video decoders), and to the
// capture-date parsers. It runs the helper's code in process, without the
// lockdown, so that a crash shows where it is.
// It also runs the two hand-written walkers of Live Photos: the Apple MakerNote
// IFD and Samsung's SEF trailer (the MakerNote signature is put in front of the
// bytes so that mutations reach the IFD walk), and the daemon's end-marker scan
// (EndMarkerScan, run on strangers' bytes while hashing; its seeds are the cut and
// appended files of Tests/Fixtures/fuzz-seeds/end-markers).
//
// libFuzzer build (coverage of the Swift code; -DFUZZING swaps in its driver):
//   swift build -c debug --scratch-path .build/fuzz --product photofiler-fuzz \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
//   .build/fuzz/debug/photofiler-fuzz -max_len=262144 -max_total_time=300 CORPUS_DIR
// Plain build: a deterministic mutation loop over the given seed files, or a replay:
//   photofiler-fuzz [--iterations N] [--seed S] FILE…     mutate each FILE N times
//   photofiler-fuzz --replay FILE…                         run each file once

/// One input through the helper's entry point. Never throws: refusals are expected answers.
final class FuzzHarness {
    let server = HelperServer { () throws(MediaError) in try LibraryDecoders() }
    let folder: BytePath
    var counter = 0

    init() {
        var template = Array("/tmp/photofiler-fuzz-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!
        folder = BytePath(cString: made)
    }

    func run(_ bytes: UnsafeRawBufferPointer) {
        // Media: through a real file and an `.inspect` request, as the daemon sends it.
        counter += 1
        let path = folder.appending("input-\(counter % 4)")
        try? Sys.unlinkIfPresent(path)
        if let out = try? Sys.createExclusive(path) {
            try? out.writeAll(bytes)
            out.close()
            if let fd = try? Sys.openForReading(path) {
                let request = HelperRequest.inspect(
                    id: UInt32(truncatingIfNeeded: counter), path: path, size: Int64(bytes.count))
                _ = server.answer(request.encoded, descriptor: fd)
                thumbnails(of: fd, path: path, size: Int64(bytes.count))
                fd.close()
            }
            try? Sys.unlink(path)
        }
        // The request itself, as bytes a broken daemon (or a fuzzer) could send.
        _ = server.answer(Array(bytes.prefix(512)), descriptor: nil)
        // Live Photos and the kinds of pictures: the MakerNote walk, on the bytes as
        // they are and behind the signature, a HEIF's boxes, and the SEF directory as
        // the end of a file.
        let input = Array(bytes)
        _ = AppleMakerNote.tags(in: input)
        _ = AppleMakerNote.tags(in: AppleMakerNote.signature + [0, 1, 0x4D, 0x4D] + input)
        _ = HEIFAuxiliaryTypes.read(bytes)
        for block in MotionPhoto.samsungBlocks(tail: input, fileSize: Int64(input.count)) {
            precondition(block.offset >= 0 && block.offset + block.size <= Int64(input.count))
            let start = Int(block.offset)
            _ = MotionPhoto.samsungVideo(
                in: block,
                header: Array(input[start..<min(input.count, start + MotionPhoto.samsungHeaderSize)]))
        }
        endMarkers(input)
        // Dates: the first 64 bytes as a file name, the same bytes as EXIF text.
        let prefix = Array(bytes.prefix(64)).filter { $0 != 0 && $0 != UInt8(ascii: "/") }
        _ = CaptureDates.fromFileName(BytePath(bytes: prefix))
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        let split = text.split(separator: "|", maxSplits: 1)
        _ = CaptureDates.fromExif(String(split.first ?? ""), offset: split.count > 1 ? String(split[1]) : nil)
    }

    /// The thumbnail decoders on the same file (libvips and libheif as an image,
    /// libavformat, libavcodec and libswscale as a video turned a quarter more each
    /// time), as `save` asks the helper, into a scratch output file.
    func thumbnails(of fd: FileDescriptor, path: BytePath, size: Int64) {
        let output = folder.appending("thumbnail")
        try? Sys.unlinkIfPresent(output)
        guard let out = try? Sys.createExclusive(output) else { return }
        defer {
            out.close()
            try? Sys.unlink(output)
        }
        for source in [ThumbnailRequest.Source.image, .video(rotation: counter % 4 * 90)] {
            let request = HelperRequest.thumbnail(
                id: UInt32(truncatingIfNeeded: counter), path: path, size: size,
                request: ThumbnailRequest(source: source, renditions: [.jpeg(256), .jpeg(1024)]))
            _ = server.answer(request.encoded, descriptor: fd, output: out)
        }
    }

    /// The end-marker scans over the bytes in one piece and in the uneven pieces a hash
    /// pass may read: the answer must not depend on where the reads fall.
    func endMarkers(_ input: [UInt8]) {
        var whole = EndMarkerScans.anyType
        var pieces = EndMarkerScans.anyType
        input.withUnsafeBytes { bytes in
            whole.consume(bytes)
            var start = 0
            var length = 1
            while start < bytes.count {
                let end = min(bytes.count, start + length)
                pieces.consume(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
                length = length * 3 % 8191 + 1
            }
        }
        for type in ["image/jpeg", "image/png", "image/gif"] {
            let path = BytePath("fuzz-input")
            let wholeEnds = (try? whole.verify(mimeType: type, path: path)) != nil
            let piecesEnd = (try? pieces.verify(mimeType: type, path: path)) != nil
            precondition(wholeEnds == piecesEnd, "the \(type) end scan depends on how the bytes are read")
        }
    }

    /// Removes the scratch folder (a top-level instance is never deinitialised).
    func cleanUp() { try? Sys.removeDirectory(folder) }
}

// libFuzzer calls back on the thread that started it; nothing else touches the harness.
nonisolated(unsafe) let harness = FuzzHarness()

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// libFuzzer's entry point (its driver refers to it by name).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        harness.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    // SwiftPM renames this file's main, so libFuzzer's own main is not linked:
    // start its driver here.
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
#else
    /// A small deterministic generator (SplitMix64), so a failing seed replays.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One mutation of `bytes`: flips, interesting values, cuts, splices, repeats.
    func mutate(_ bytes: [UInt8], using random: inout SplitMix) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            if out.isEmpty { out = [0xFF, 0xD8] }
            let at = Int.random(in: 0..<out.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: out[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            case 1: out[at] = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE][Int.random(in: 0..<6, using: &random)]
            case 2: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...4096, using: &random)))
            case 3: out = Array(out.prefix(at))
            case 4:
                // A length or offset field made huge.
                for k in 0..<min(4, out.count - at) { out[at + k] = 0xFF }
            case 5:
                let from = Int.random(in: 0..<out.count, using: &random)
                out.insert(contentsOf: out[from..<min(out.count, from + 64)], at: at)
            default:
                for k in 0..<min(4, out.count - at) { out[at + k] = 0x00 }
            }
        }
        return out
    }

    func readAll(_ path: String) -> [UInt8]? {
        guard let fd = try? Sys.openForReading(BytePath(path)) else { return nil }
        defer { fd.close() }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while let count = try? buffer.withUnsafeMutableBytes({ try fd.read(into: $0) }), count > 0 {
            result += buffer[..<count]
        }
        return result
    }

    var arguments = Array(CommandLine.arguments.dropFirst())
    var iterations = 200
    var seed: UInt64 = 1
    var replay = false
    while let first = arguments.first, first.hasPrefix("--") {
        arguments.removeFirst()
        switch first {
        case "--iterations": iterations = Int(arguments.removeFirst()) ?? iterations
        case "--seed": seed = UInt64(arguments.removeFirst()) ?? seed
        case "--replay": replay = true
        default:
            FileHandle.standardError.write(Data("photofiler-fuzz: unknown option \(first)\n".utf8))
            exit(2)
        }
    }
    var random = SplitMix(state: seed)
    var runs = 0
    for file in arguments {
        guard let bytes = readAll(file) else { continue }
        if replay {
            bytes.withUnsafeBytes { harness.run($0) }
            runs += 1
            continue
        }
        for _ in 0..<iterations {
            let input = mutate(bytes, using: &random)
            input.withUnsafeBytes { harness.run($0) }
            runs += 1
        }
    }
    harness.cleanUp()
    print("photofiler-fuzz: \(runs) input(s) run, seed \(seed)")
#endif
