/// The gallery's style sheet.
enum GalleryStyle {
    static let text = #"""
        :root { color-scheme: light dark; --gap: 4px; --tile: 180px; --accent: #2f7de1; }
        * { box-sizing: border-box; }
        /* A month or tile scrolled to (the scrubber, the arrow keys) comes to rest below the sticky bar. */
        html { scroll-padding-top: calc(var(--bar-height, 56px) + 8px); }
        body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: Canvas; color: CanvasText; }
        .bar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: 12px;
               padding: 8px 16px; background: color-mix(in srgb, Canvas 92%, CanvasText); }
        .bar h1 { font-size: 18px; margin: 0; flex: 1 1 auto; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .home { font-weight: 700; color: inherit; text-decoration: none; }
        #tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        #tools input { font: inherit; padding: 3px 6px; }
        button, .button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #8888;
                 background: Canvas; color: CanvasText; cursor: pointer; text-decoration: none; }
        button[aria-pressed="true"] { background: var(--accent); color: white; border-color: var(--accent); }
        button:disabled { opacity: .5; cursor: default; }
        main { padding: 12px 16px 48px; outline: none; }
        .layout { display: flex; gap: 12px; }
        .months { flex: 1 1 auto; min-width: 0; }
        .scrubber { position: sticky; top: 64px; align-self: flex-start; max-height: calc(100vh - 80px); overflow-y: auto;
                    display: flex; flex-direction: column; gap: 2px; font-size: 12px; min-width: 84px; }
        .scrubber a { color: inherit; text-decoration: none; padding: 1px 4px; border-radius: 4px; }
        .scrubber a:hover, .scrubber a:focus { background: #8884; }
        .month h2 { font-size: 15px; margin: 16px 0 6px; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(var(--tile), 1fr)); gap: var(--gap); }
        .tile { position: relative; display: block; aspect-ratio: 1; overflow: hidden; border-radius: 4px; padding: 0;
                background: #8883; border: 0; color: inherit; text-decoration: none; }
        .tile img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .tile:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .tile .badge { position: absolute; right: 6px; bottom: 6px; padding: 0 6px; border-radius: 8px;
                       background: #000a; color: white; font-size: 12px; }
        .live video.live-video { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover;
                                 opacity: 0; transition: opacity .15s; pointer-events: none; }
        .live.playing video.live-video { opacity: 1; }
        .live-frame { position: relative; display: inline-block; line-height: 0; }
        .live-frame video.live-video { object-fit: contain; }
        .live-frame .badge { position: absolute; left: 8px; top: 8px; padding: 2px 8px; border-radius: 8px;
                             background: #000a; color: white; font-size: 12px; line-height: 1.4; }
        .tile.selected { outline: 4px solid var(--accent); outline-offset: -4px; }
        .tile.selected::after { content: "✓"; position: absolute; top: 6px; right: 6px; width: 24px; height: 24px;
                                border-radius: 12px; background: var(--accent); color: white; text-align: center; }
        .album.tile { aspect-ratio: auto; background: none; overflow: visible; }
        .placeholder { display: block; width: 100%; height: 100%; background: #8883; }
        .viewer .placeholder { width: min(100%, 640px); height: auto; aspect-ratio: 4 / 3; }
        .album.tile img, .album.tile .empty, .album.tile .placeholder { width: 100%; height: auto; aspect-ratio: 1; object-fit: cover;
                                              border-radius: 6px; background: #8883; }
        .caption { display: flex; flex-direction: column; padding: 4px 2px; }
        .count { opacity: .7; font-size: 13px; }
        .viewer { margin: 0; display: flex; justify-content: center; background: #0003; border-radius: 6px; }
        .viewer img, .viewer video { max-width: 100%; max-height: 75vh; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 16px 0; }
        .facts dt { opacity: .7; }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        .actions { display: flex; gap: 8px; }
        .hint, #status { opacity: .75; }
        .picked { margin: 0 16px; } .picked li { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
        #status { margin: 0 16px 16px; min-height: 1.4em; }
        """#
}
