import Foundation
import TestSupport
import Testing

@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The quick handle (no text-encoding check) may answer only where it says what
/// the thorough one says.
@Suite
struct MagicSnifferTests {
    /// Every file under `Tests/Fixtures` (corpus, broken files, HEIF fixtures, their
    /// READMEs and licences) and the fuzz inputs; not the empty ones, which the
    /// reader refuses before it sniffs.
    static var fixtureFiles: [String] {
        let roots = [
            String(decoding: Fixtures.root.bytes, as: UTF8.self),
            String(decoding: BytePath(#filePath).parent.appending("FuzzInputs").bytes, as: UTF8.self),
        ]
        return roots.flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
                .map { "\(root)/\($0)" }
                .filter { path in
                    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                    return attributes?[.type] as? FileAttributeType == .typeRegular
                        && (attributes?[.size] as? Int ?? 0) > 0
                }
        }.sorted()
    }

    /// Text that libmagic tells apart only with its encoding check.
    static let texts: [(String, String)] = [
        ("<!DOCTYPE html><html><body>a page</body></html>\n", "text/html"),
        ("plain words, nothing else\n", "text/plain"),
        ("#!/bin/sh\necho hello\n", "text/x-shellscript"),
    ]

    @Test func theFixturesAreThere() {
        #expect(Self.fixtureFiles.count >= 30)
    }

    @Test(arguments: fixtureFiles)
    func bothHandlesAgreeWhereTheQuickOneAnswers(_ path: String) throws {
        let sniffer = try MagicSniffer()
        let head = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(MagicSniffer.bytesMax))
        let thorough = try sniffer.mimeType(of: head, using: .thorough).get()
        let quick = try sniffer.mimeType(of: head, using: .quick).get()
        if MediaFormat(mimeType: quick) != nil { #expect(quick == thorough, "\(path)") }
        #expect(try sniffer.mimeType(of: head).get() == thorough, "\(path)")
    }

    @Test func textKeepsTheTypeOnlyTheEncodingCheckFinds() throws {
        let sniffer = try MagicSniffer()
        for (text, type) in Self.texts {
            #expect(try sniffer.mimeType(of: Array(text.utf8)).get() == type)
        }
    }
}
