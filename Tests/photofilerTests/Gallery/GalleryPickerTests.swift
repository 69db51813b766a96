import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler serve`'s own `/pick` (photofiler(1) serve): the filter and the limit come
/// from its query, and Add answers with the picked assets, as `pick --json` prints them.
@Suite struct GalleryPickerTests {
    @Test func thePickPageTakesItsFilterFromTheQuery() throws {
        let library = try GalleryAPITests.library(count: 2)
        let server = try GalleryProcess(library: library.root)
        let page = try server.request("GET", "/pick?media=image&limit=2&album=Trip")
        #expect(page.status == 200)
        #expect(page.text.contains("data-page=\"pick\""))
        #expect(page.text.contains("data-limit=\"2\"") && page.text.contains("data-media=\"image\""))
        #expect(page.text.contains("data-album=\"Trip\""))
        #expect(!page.text.contains("data-pick-ends"), "no command waits on the gallery's picker")
        #expect(try server.request("GET", "/pick").status == 200)
        for bad in [
            "/pick?media=sound", "/pick?limit=0", "/pick?limit=many", "/pick?album=..", "/pick?album=a%2Fb",
        ] {
            #expect(try server.request("GET", bad).status == 400, "\(bad)")
        }
        #expect(try server.request("GET", "/pick?album=Nowhere").status == 404)
    }

    @Test func addAnswersWithThePickedAssetsWithinTheFilter() throws {
        let library = try GalleryAPITests.library(count: 2)
        let server = try GalleryProcess(library: library.root)
        let token = try #require(metaToken(try server.request("GET", "/pick").text))
        let write = ["X-PhotoFiler-Token": token]
        let trip = try library.list("--album", "Trip").compactMap(assetID)
        let work = try library.list("--album", "Work").compactMap(assetID)
        let ids = trip.map(String.init).joined(separator: ",")

        let reply = try server.request("POST", "/api/pick?album=Trip&limit=2&ids=\(ids)", headers: write)
        #expect(reply.status == 200)
        let picked = try #require(
            try JSONSerialization.jsonObject(with: Data(reply.body)) as? [[String: Any]])
        #expect(picked.compactMap(assetID) == trip)
        let info = try #require(try library.run("info", String(trip[0]), "--json").json() as? [String: Any])
        #expect(picked.first?["path"] as? String == info["path"] as? String)

        for refused in [
            "/api/pick?album=Trip&ids=\(work[0])", "/api/pick?limit=1&ids=\(ids)",
            "/api/pick?media=video&ids=\(ids)",
            "/api/pick?ids=", "/api/pick?media=sound&ids=\(ids)",
        ] {
            #expect(try server.request("POST", refused, headers: write).status == 400, "\(refused)")
        }
        #expect(try server.request("POST", "/api/pick/cancel", headers: write).status == 204)
        #expect(try server.request("POST", "/api/pick?ids=\(ids)").status == 403, "a write needs its token")
        // Nothing ended: the gallery still answers.
        #expect(try server.request("GET", "/api/albums").status == 200)
    }

    @Test func aShareHasNoPicker() throws {
        let library = try GalleryAPITests.library(count: 1)
        let token = try shareToken(library, album: "Trip")
        let server = try GalleryProcess(library: library.root)
        let auth = ["X-PhotoFiler-Token": token]
        #expect(try server.request("GET", "/pick", headers: auth).status == 404)
        #expect(try server.request("POST", "/api/pick?ids=1", headers: auth).status == 403)
    }
}
