import Foundation
import Glibc
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerSystem
import Synchronization

/// `photofiler thumb`: writes one asset's thumbnail, or makes every missing one.
struct ThumbCommand: Command {
    static let name = "thumb"
    static let help = """
        usage: photofiler thumb ID|PATH [--size 256|1024] [-o FILE] [--library DIR]
               photofiler thumb --all [--library DIR]
        Writes the asset's thumbnail (256 px by default; made now when missing): JPEG, or PNG when FILE
        ends in .png; to stdout without -o or with -o -. Exit 1 when the file cannot be decoded.
        --all makes every missing thumbnail now (and the desktop's cache entries), with a progress line.
        """

    enum Target {
        case one(reference: BytePath, size: ThumbnailSize, output: BytePath?)
        case all
    }

    let target: Target

    init(_ arguments: inout Arguments) throws(UsageError) {
        let all = arguments.flag("--all")
        let sizeText = try arguments.string("--size")
        let output = try arguments.value("-o")
        let operands = try arguments.operands()
        if all {
            guard operands.isEmpty, sizeText == nil, output == nil else {
                throw UsageError("'thumb --all' takes no id, --size or -o; see 'photofiler thumb --help'.")
            }
            target = .all
            return
        }
        guard operands.count == 1 else {
            throw UsageError("Give one asset id or path (or --all); see 'photofiler thumb --help'.")
        }
        var size = ThumbnailSize.grid
        if let sizeText {
            guard let number = Int(sizeText), let chosen = ThumbnailSize(rawValue: number) else {
                throw UsageError("The option --size takes 256 or 1024, not '\(sizeText)'.")
            }
            size = chosen
        }
        target = .one(reference: operands[0], size: size, output: output?.display == "-" ? nil : output)
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        let desktop = Configuration.desktopThumbnailCache(context.configuration)
        switch target {
        case .all:
            return makeAll(library, context)
        case .one(let reference, let size, let output):
            return writeOne(library, desktop: desktop, reference, size: size, output: output, context)
        }
    }

    private func writeOne(
        _ library: PhotoLibrary, desktop: DesktopThumbnailCache?, _ reference: BytePath, size: ThumbnailSize,
        output: BytePath?, _ context: Context
    ) -> Int32 {
        do {
            guard let asset = try library.asset(matching: reference) else {
                context.fail(
                    "'\(reference.display)' is not an asset of this library; 'photofiler list' shows them.")
                return 1
            }
            let store = try ThumbnailStore(library: library, desktop: desktop)
            // Asked for by name: a file that failed before is tried again.
            if try store.madePath(of: asset, size: size) == nil {
                try store.make(
                    asset, retryingFailure: true, desktopProblem: { context.log.warning($0.description) })
            }
            let thumbnail = try store.ensure(asset: asset, size: size)
            let wantsPNG = output.map { $0.display.lowercased().hasSuffix(".png") } ?? false
            let bytes = wantsPNG ? try store.png(of: thumbnail) : try readAll(thumbnail)
            guard let output else {
                try FileDescriptor(rawValue: STDOUT_FILENO).writeAll(bytes)
                return 0
            }
            let file = try library.openOutput(output)
            defer { file.close() }
            try file.writeAll(bytes)
            return 0
        } catch let error as ThumbnailError {
            context.fail(error.description)
        } catch let error as SystemError {
            context.fail(
                "The thumbnail could not be written (\(error)); check the folder and its permissions.")
        } catch {
            context.fail("\(error)")
        }
        return 1
    }

    private func makeAll(_ library: PhotoLibrary, _ context: Context) -> Int32 {
        let line = ProgressLine(onTerminal: isatty(2) == 1)
        let log = context.log
        do {
            let outcome = try context.runThumbnails(
                library, only: nil, retryingFailure: true, progress: { done, total in line.show(done, total) }
            )
            line.finish()
            log.info(
                "Thumbnails: \(outcome.made) asset(s) made, \(outcome.undecodable) could not be decoded, \(outcome.unreadable) could not be looked at, \(outcome.failed) failed for another reason, \(outcome.total) in the library."
            )
            // An undecodable file is an answer (it has no thumbnail); one that could not be
            // looked at or made is not, and its warning says what to fix.
            return outcome.unreadable > 0 || outcome.failed > 0 ? 1 : 0
        } catch {
            line.finish()
            context.fail(error.description)
            return 1
        }
    }

    private func readAll(_ path: BytePath) throws(SystemError) -> [UInt8] {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        return try fd.readToEnd(limit: 64 * 1024 * 1024)
    }

}

/// `thumb --all`'s progress: one line rewritten in place on a terminal, else a
/// line every 10% (a log, a pipe).
final class ProgressLine: Sendable {
    private let onTerminal: Bool
    private let shown = Mutex<Int>(-1)

    init(onTerminal: Bool) { self.onTerminal = onTerminal }

    func show(_ done: Int, _ total: Int) {
        let percent = total == 0 ? 100 : done * 100 / total
        let step = onTerminal ? percent : percent / 10 * 10
        let changed = shown.withLock { last -> Bool in
            guard step != last else { return false }
            last = step
            return true
        }
        guard changed else { return }
        let text = "Thumbnails: \(done)/\(total) (\(percent)%)"
        FileHandle.standardError.write(Data((onTerminal ? "\r\(text)" : "\(text)\n").utf8))
    }

    func finish() {
        if onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
