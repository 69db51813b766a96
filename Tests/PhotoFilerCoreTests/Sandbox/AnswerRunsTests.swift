import Glibc
import TestSupport
import Testing

@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSandbox
@testable import PhotoFilerSystem

/// A helper answers quick requests in runs while more wait (`AnswerRuns`), and the
/// pool still blames only the file a helper crashed or hung on: files whose answers
/// were held when it ended are tried again, one at a time, and filed.
@Suite struct AnswerRunsTests {
    /// A file that makes a debug build's helper fail (`HelperFaults`): `CRASH` or `HANG`.
    static func hostile(_ word: String, in folder: TemporaryFolder) throws -> BytePath {
        let path = folder.file("\(word.lowercased()).jpg")
        try writeFile(path, Array("PHOTOFILER-TEST-\(word)\n".utf8) + Array(repeating: 0, count: 64))
        return path
    }

    /// Sends one light helper, stopped meanwhile so that all of them wait in its
    /// socket, an inspection of each file (its size as given, else its own), then
    /// reads what the helper answers until it hangs up.
    static func answersUntilTheHelperEnds(_ files: [(path: BytePath, size: Int64?)]) throws -> [HelperAnswer]
    {
        let helper = try HelperProcess.spawn(try HelperExecutable.locate(.light).get())
        defer {
            _ = helper.kill()
            helper.socket.close()
        }
        kill(helper.pid, SIGSTOP)
        for (index, file) in files.enumerated() {
            let fd = try Sys.openForReading(file.path)
            defer { fd.close() }
            let request = HelperRequest.inspect(
                id: UInt32(index + 1), path: file.path, size: try file.size ?? fd.status().size)
            try Sys.sendMessage(helper.socket, request.encoded, passing: [fd])
        }
        kill(helper.pid, SIGCONT)
        var answers: [HelperAnswer] = []
        var hungUp = false
        #expect(
            try waitUntil(timeout: 30) {
                while !hungUp {
                    do {
                        guard
                            let message = try Sys.receiveMessage(
                                helper.socket, limit: HelperRequest.largestMessage)
                        else {
                            hungUp = true
                            break
                        }
                        answers.append(try HelperAnswer.decode(message.bytes))
                    } catch let error as SystemError where error.errno == .wouldBlock {
                        return false
                    }
                }
                return true
            }, "the helper did not end")
        return answers
    }

    @Test func anAnswerIsHeldWhileAnotherRequestWaits() throws {
        let folder = try TemporaryFolder()
        let answers = try Self.answersUntilTheHelperEnds([
            (HelperPoolTests.jpeg, nil), (try Self.hostile("CRASH", in: folder), nil),
        ])
        // The JPEG's answer was held for the run when the second file crashed the helper.
        #expect(answers.isEmpty, "\(answers)")
    }

    @Test func theAnswersHeldGoBeforeARequestThatIsNotQuick() throws {
        let folder = try TemporaryFolder()
        let large: Int64 = 64 << 20
        #expect(!AnswerRuns.mayHold(.inspect, size: large))
        let answers = try Self.answersUntilTheHelperEnds([
            (HelperPoolTests.jpeg, nil), (try Self.hostile("CRASH", in: folder), large),
        ])
        #expect(answers.map(\.id) == [1], "\(answers)")
        #expect(answers.first?.outcome == .value)
    }

    /// One helper, stopped while the pool sends it every file, so that it holds the
    /// answers before the hostile one when that one ends it.
    static func inspectBehindHeldAnswers(_ paths: [BytePath], deadline: Double) throws -> [Result<
        MediaInfo, MediaError
    >] {
        var settings = HelperPool.Settings()
        settings.helpers = 1
        settings.deadlineSeconds = deadline
        let pool = HelperPool(settings: settings)
        defer { pool.stop() }
        pool.prepare()
        #expect(waitUntil(timeout: 20) { pool.helperPIDs(.light).count == 1 })
        let helper = pool.helperPIDs(.light)[0]
        kill(helper, SIGSTOP)
        let fds = try paths.map { try Sys.openForReading($0) }
        defer { for fd in fds { fd.close() } }
        let reads = pool.inspect(
            try zip(fds, paths).map { fd, path in MediaFile(fd: fd, path: path, size: try fd.status().size) })
        kill(helper, SIGCONT)
        return reads.wait()
    }

    @Test(arguments: ["CRASH", "HANG"])
    func aFileThatEndsItsHelperBehindHeldAnswersCostsOnlyItself(word: String) throws {
        let folder = try TemporaryFolder()
        let hostile = try Self.hostile(word, in: folder)
        let paths =
            Array(repeating: HelperPoolTests.jpeg, count: 5) + [hostile]
            + Array(repeating: HelperPoolTests.jpeg, count: 5)
        let answers = try Self.inspectBehindHeldAnswers(paths, deadline: 2)
        for (path, answer) in zip(paths, answers) {
            switch (path == hostile, answer) {
            case (false, .success(let info)):
                #expect(info.mediaType == .image)
            case (true, .failure(.readerFailed(_, let what))) where word == "CRASH":
                #expect(what.contains("crashed"), "\(what)")
            case (true, .failure(.readerTimedOut(_, let seconds))) where word == "HANG":
                #expect(seconds == 2)
            default:
                Issue.record("\(path.display): \(answer)")
            }
        }
    }
}
