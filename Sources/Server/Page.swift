/// The gallery's HTML: one small shell per page; the script draws the rest from
/// the API. No inline script or style (the Content-Security-Policy forbids them),
/// nothing loaded from elsewhere.
enum Page {
    enum Kind: String {
        case albums, album, asset, pick
    }

    static func render(_ kind: Kind, token: String, attributes: [String: String]) -> String {
        var data = " data-page=\"\(kind.rawValue)\""
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            data += " data-\(name)=\"\(htmlEscaped(value))\""
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="photofiler-token" content="\(htmlEscaped(token))">
            <title>photofiler</title>
            <link rel="stylesheet" href="/static/gallery.css">
            <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
            <script src="/static/gallery.js" defer></script>
            </head>
            <body\(data)>
            <header class="bar">
            <a class="home" href="/">photofiler</a>
            <h1 id="title">photofiler</h1>
            <div id="tools"></div>
            </header>
            <main id="main" tabindex="-1"><p class="hint">Loading…</p></main>
            <p id="status" role="status" aria-live="polite"></p>
            </body>
            </html>
            """
    }

    /// A page a browser is shown when the gallery refuses it (no token, or a share's
    /// that was revoked or has expired): the reason in words, not as JSON.
    static func refused(_ message: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Not allowed · photofiler</title></head>
        <body><h1>photofiler</h1><p>\(htmlEscaped(message))</p></body>
        </html>
        """
    }

    /// What a page asked for with `?token=` is answered: it moves on at once to `address`
    /// (the same without the token). A refresh, not an HTTP redirect: a link from
    /// another site (a chat, an e-mail, `pick`'s file) makes a cross-site navigation,
    /// which an HTTP redirect continues, and the browser would not send the new
    /// SameSite=Strict cookie to the page it leads to; the refresh is this page's own.
    static func onward(to address: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=\(htmlEscaped(address))">
        <title>photofiler</title><link rel="icon" href="/static/icon.svg" type="image/svg+xml"></head>
        <body><p><a href="\(htmlEscaped(address))">Continue</a></p></body>
        </html>
        """
    }

    static let notFound = """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Not found · photofiler</title>
        <link rel="stylesheet" href="/static/gallery.css">
        <link rel="icon" href="/static/icon.svg" type="image/svg+xml"></head>
        <body><header class="bar"><a class="home" href="/">photofiler</a><h1>Not found</h1></header>
        <main><p class="hint">There is nothing here: the album or asset does not exist, or this link does not open it.</p></main>
        </body>
        </html>
        """
}

/// The scripts, the style sheet and the icon, embedded in the binary (from `Static/`,
/// by `Package.swift`'s resources). The pages' icon is declared by each page: the
/// browser asks for no `/favicon.ico`.
enum PageFiles {
    static func file(_ name: String) -> HTTPResponse {
        let (type, bytes): (String, [UInt8])
        switch name {
        case "gallery.js": (type, bytes) = ("text/javascript; charset=utf-8", PackageResources.gallery_js)
        case "gallery.css": (type, bytes) = ("text/css; charset=utf-8", PackageResources.gallery_css)
        case "icon.svg": (type, bytes) = ("image/svg+xml", PackageResources.icon_svg)
        case "events-worker.js":
            (type, bytes) = ("text/javascript; charset=utf-8", PackageResources.events_worker_js)
        default: return .error(404, "There is no /static/\(name).")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache")], body: .bytes(bytes)
        )
    }
}
