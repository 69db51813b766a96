import TestSupport
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// Step 2 of filing (a file's bytes durable before any link to it) is done by the
/// inspection: a small group's while the helpers read it, a large group's by one
/// `syncfs` once they have answered. Either way every file it calls ready comes
/// back with its bytes durable, so the filer does not sync it again; the order
/// against the links is the crash-point suites' to prove.
@Suite
struct InspectionDurabilityTests {
    @Test(arguments: [1, GroupDurability.syncfsGroupSize - 1, GroupDurability.syncfsGroupSize])
    func everyReadyFileComesBackDurable(files: Int) throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let requests = try (0..<files).map { n in
            let source = inbox.appending("photo-\(n).jpg")
            try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: source)
            return FilingRequest(source: source, album: nil, origin: nil, mode: .move, link: .hard)
        }

        let inspections = library.filer.inspector.inspect(requests)

        #expect(inspections.count == files)
        for inspection in inspections {
            guard case .ready(let file) = inspection else {
                Issue.record("not ready: \(inspection)")
                continue
            }
            #expect(file.bytesDurable, "\(file.source) came back without its bytes synced")
            file.fd.close()
        }
    }

    /// A file the helper refuses is no reason to leave the others' bytes unsynced.
    @Test func aRefusedFileLeavesTheOthersDurable() throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let picture = inbox.appending("photo.jpg")
        try copyFile(Fixtures.corpus("Landscape_1.jpg"), to: picture)
        let notes = inbox.appending("notes.jpg")
        try writeFile(notes, Array("not a picture, whatever its name says\n".utf8))
        let requests = [picture, notes].map {
            FilingRequest(source: $0, album: nil, origin: nil, mode: .move, link: .hard)
        }

        let inspections = library.filer.inspector.inspect(requests)

        guard case .ready(let file) = inspections[0] else {
            Issue.record("the picture is not ready: \(inspections[0])")
            return
        }
        #expect(file.bytesDurable)
        file.fd.close()
        guard case .failed = inspections[1] else {
            Issue.record("the text file was not refused: \(inspections[1])")
            return
        }
    }
}
