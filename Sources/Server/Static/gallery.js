// The gallery's one script: draws each page from the API, keeps it current through `/api/events`,
// and handles the keyboard. Plain JavaScript, no build step.
'use strict';
(() => {
  const body = document.body;
  const kind = body.dataset.page;
  const token = (document.querySelector('meta[name="photofiler-token"]') || {}).content || '';
  const shared = body.dataset.sharedAlbum || null;
  const main = document.getElementById('main');
  const tools = document.getElementById('tools');
  const statusLine = document.getElementById('status');

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      node.setAttribute(name, value === true ? '' : String(value));
    }
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  }
  function say(text) { statusLine.textContent = text; }
  const countText = (count) => count + (count === 1 ? ' item' : ' items');
  function setTitle(text) { document.getElementById('title').textContent = text; document.title = text + ' · photofiler'; }
  async function getJSON(url) {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(url + ' answered ' + response.status);
    return response.json();
  }
  async function change(method, url) {
    const response = await fetch(url, { method, credentials: 'same-origin', headers: { 'X-PhotoFiler-Token': token } });
    if (!response.ok) throw new Error(url + ' answered ' + response.status);
    return response;
  }
  const thumbnail = (id, size) => '/api/assets/' + id + '/thumbnail?size=' + (size || 256);
  const albumHref = (name) => '/albums/' + encodeURIComponent(name);
  // One formatter for every month: toLocaleDateString makes a new one per call (a millisecond each).
  const monthFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long' });
  function monthTitle(month) {
    const [year, number] = month.split('-').map(Number);
    return monthFormat.format(new Date(year, number - 1, 1));
  }
  function describe(asset) {
    const what = asset.mediaType === 'video' ? 'Video' : (asset.subtypes.includes('live') ? 'Live Photo' : 'Photo');
    return what + ' ' + asset.originalName + ', ' + asset.created.slice(0, 10);
  }
  if (shared) {
    document.querySelector('.home').setAttribute('href', albumHref(shared));
    // The owner who opened a share link to check it gets the whole gallery back here.
    document.querySelector('header.bar').append(
      el('a', { class: 'leave-share', href: '/leave-share', 'data-action': 'leave-share' }, 'Leave shared view'));
  }
  // The sticky bar's height (its tools wrap on a narrow window), for the style sheet's scroll-padding.
  const bar = document.querySelector('.bar');
  new ResizeObserver(() => document.documentElement.style.setProperty('--bar-height', bar.offsetHeight + 'px'))
    .observe(bar);

  // A Live Photo moves while the mouse is over it, while a finger holds it (a long
  // press), or while it has the keyboard's focus: its video (the paired file, or the
  // one inside a motion photo) is laid over the still, muted, made only when first played.
  function livePlayer(host, asset) {
    let video = null;
    const start = () => {
      if (!video) {
        video = el('video', { class: 'live-video', src: '/api/assets/' + asset.id + '/video', muted: true,
                              playsinline: true, loop: true, preload: 'auto', 'aria-hidden': 'true',
                              'data-live-video': asset.id });
        video.muted = true;
        host.append(video);
      }
      host.classList.add('playing');
      const playing = video.play();
      if (playing) playing.catch(() => host.classList.remove('playing'));
    };
    const stop = () => {
      host.classList.remove('playing');
      if (video) video.pause();
    };
    let press = null;
    host.addEventListener('pointerenter', (event) => { if (event.pointerType === 'mouse') start(); });
    host.addEventListener('pointerleave', (event) => { if (event.pointerType === 'mouse') stop(); });
    host.addEventListener('pointerdown', (event) => {
      if (event.pointerType !== 'mouse') press = setTimeout(start, 300);
    });
    for (const name of ['pointerup', 'pointercancel']) {
      host.addEventListener(name, (event) => {
        clearTimeout(press);
        if (event.pointerType !== 'mouse') stop();
      });
    }
    // A long press would otherwise open the browser's menu for the picture.
    host.addEventListener('contextmenu', (event) => { if (host.classList.contains('playing')) event.preventDefault(); });
    host.addEventListener('focus', start);
    host.addEventListener('blur', stop);
    return { start, stop };
  }
  const isLive = (asset) => asset.subtypes.includes('live') && asset.liveVideo;
  // A picture whose thumbnail cannot be made (a file that cannot be decoded) shows a
  // neutral placeholder rather than a broken image.
  function orPlaceholder(image, label) {
    image.addEventListener('error', () => image.replaceWith(el('span', { class: 'placeholder', role: 'img', 'aria-label': label })));
    return image;
  }

  // Server-Sent Events: filed, deleted, changed, each {"id": N}; after a reconnect the
  // browser's Last-Event-ID brings what it missed, or `reset` (reload everything).
  // Every page of the origin shares one stream through a SharedWorker (a stream per tab
  // used up the browser's six connections to the host); a share's pages have their own,
  // opened with the share's token. Without SharedWorker, the page opens its own stream.
  const listeners = [];
  const events = (() => {
    const deliver = (name, data) => {
      const id = name === 'reset' ? null : JSON.parse(data).id;
      for (const each of listeners) each(name, id);
    };
    if (typeof SharedWorker === 'undefined') {
      let source = null;
      return {
        join() {
          source = new EventSource('/api/events');
          for (const name of ['filed', 'deleted', 'changed', 'reset']) {
            source.addEventListener(name, (event) => deliver(name, event.data));
          }
        },
        leave() { if (source) source.close(); source = null; },
      };
    }
    const worker = new SharedWorker('/static/events-worker.js',
      { name: shared ? 'photofiler events of shared album ' + shared : 'photofiler events' });
    worker.port.onmessage = (message) => deliver(message.data.name, message.data.data);
    return { join() { worker.port.postMessage('join'); }, leave() { worker.port.postMessage('leave'); } };
  })();
  let listening = false;
  function listen() { if (!listening) { listening = true; events.join(); } }
  // A page that is done with events (a finished pick, a page left) lets the stream go.
  function stopListening() { if (listening) { listening = false; events.leave(); } }
  addEventListener('pagehide', stopListening);
  addEventListener('pageshow', (event) => { if (event.persisted && listeners.length) listen(); });
  function onChange(listener) {
    listeners.push(listener);
    listen();
  }

  // Arrow keys move between tiles in reading order and by rows; Enter opens (links and buttons do).
  function moveFocus(key) {
    const tiles = [...main.querySelectorAll('.tile')];
    const index = tiles.indexOf(document.activeElement);
    if (index < 0) { if (tiles[0]) tiles[0].focus(); return; }
    let target = null;
    if (key === 'ArrowLeft') target = tiles[index - 1];
    else if (key === 'ArrowRight') target = tiles[index + 1];
    else {
      const here = tiles[index].getBoundingClientRect();
      const down = key === 'ArrowDown';
      const row = tiles.filter((tile) => {
        const box = tile.getBoundingClientRect();
        return down ? box.top > here.top + 2 : box.top < here.top - 2;
      });
      const nearestTop = down ? Math.min(...row.map((t) => t.getBoundingClientRect().top))
                              : Math.max(...row.map((t) => t.getBoundingClientRect().top));
      let best = Infinity;
      for (const tile of row) {
        const box = tile.getBoundingClientRect();
        if (Math.abs(box.top - nearestTop) > 2) continue;
        const distance = Math.abs(box.left - here.left);
        if (distance < best) { best = distance; target = tile; }
      }
    }
    if (target) { target.focus(); target.scrollIntoView({ block: 'nearest' }); }
  }
  document.addEventListener('keydown', (event) => {
    if (event.target.matches && event.target.matches('input, video')) return;
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) {
      event.preventDefault();
      moveFocus(event.key);
    } else if (event.key === 'Escape') {
      escape();
    }
  });
  let escape = () => {};

  // `/`: the albums, user then smart, as covers with counts.
  async function showAlbums() {
    setTitle(shared ? 'Shared album' : 'Albums');
    const albums = await getJSON('/api/albums');
    const grid = el('div', { class: 'grid albums', role: 'list' });
    // A user album may have a smart album's name (an inbox named Screenshots): the name
    // then means the user's album, here as on the command line, and the smart one is not shown.
    const userAlbums = new Set(albums.filter((album) => album.kind === 'user').map((album) => album.name));
    for (const album of albums) {
      if (album.kind === 'smart' && userAlbums.has(album.name)) continue;
      const count = countText(album.count);
      const cover = album.cover === null
        ? el('div', { class: 'empty', role: 'img', 'aria-label': album.name + ' is empty' })
        : orPlaceholder(el('img', { src: thumbnail(album.cover), alt: 'Cover of ' + album.name, decoding: 'async' }),
                        'Cover of ' + album.name);
      grid.append(el('a', { class: 'tile album', role: 'listitem', href: albumHref(album.name),
                           'data-album': album.name, 'aria-label': album.name + ', ' + count },
        cover, el('span', { class: 'caption' }, el('strong', {}, album.name), el('span', { class: 'count' }, count))));
    }
    main.replaceChildren(grid);
    say('');
  }

  // The smart albums of the kinds of pictures, and the subtype that puts an asset in each.
  const kinds = { 'Panoramas': 'panorama', 'Selfies': 'selfie', 'Portraits': 'portrait', 'Bursts': 'burst',
                  'Slo-mo': 'slomo', 'Time-lapse': 'timelapse', 'RAW': 'raw' };

  // An album or the picker: months from /api/timeline, each month's assets loaded as it nears the view.
  function albumView(options) {
    const album = options.album;
    // The smart album this page shows, if it is one (its name alone does not tell).
    const smart = options.smart ? album : null;
    const pick = options.pick;
    const filter = { media: options.media || '', name: '', from: '', to: '' };
    const sections = new Map();
    const tiles = new Map();
    const selected = new Set();
    const months = el('div', { class: 'months' });
    const scrubber = el('nav', { class: 'scrubber', 'aria-label': 'Months' });
    main.replaceChildren(el('div', { class: 'layout' }, months, scrubber));
    let generation = 0;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) loadMonth(sections.get(entry.target.dataset.month));
    }, { rootMargin: '1200px 0px' });

    function query(extra) {
      const parameters = new URLSearchParams();
      if (album) parameters.set('album', album);
      parameters.set('sort', 'created');
      for (const [name, value] of Object.entries(filter)) if (value) parameters.set(name, value);
      for (const [name, value] of Object.entries(extra || {})) if (value) parameters.set(name, value);
      return parameters.toString();
    }

    function tileFor(asset) {
      const label = describe(asset);
      const image = orPlaceholder(el('img', { src: thumbnail(asset.id), alt: label, loading: 'lazy', decoding: 'async' }), label);
      const badge = asset.mediaType === 'video' ? el('span', { class: 'badge', 'aria-hidden': 'true' }, '▶')
        : asset.subtypes.includes('live') ? el('span', { class: 'badge', 'aria-hidden': 'true' }, 'LIVE') : null;
      const attributes = { class: 'tile', 'data-asset-id': asset.id, 'data-created': asset.created, title: label };
      let tile;
      if (pick) {
        // A picked asset stays picked when a filter draws its tile again.
        const picked = selected.has(asset.id);
        attributes.class += picked ? ' selected' : '';
        tile = el('button', Object.assign(attributes, { type: 'button', 'aria-pressed': String(picked) }), image, badge);
        tile.addEventListener('click', () => toggle(asset.id, tile));
      } else {
        tile = el('a', Object.assign(attributes, { href: '/assets/' + asset.id }), image, badge);
      }
      if (isLive(asset)) {
        tile.classList.add('live');
        livePlayer(tile, asset);
      }
      return tile;
    }

    // Columns are measured once per reload: reading a width forces a layout, once per month it took seconds.
    let columns = 4;
    function section(month, count) {
      const grid = el('div', { class: 'grid' });
      const node = el('section', { class: 'month', 'data-month': month, id: 'month-' + month },
        el('h2', {}, monthTitle(month)), grid);
      grid.style.minHeight = Math.ceil(count / columns) * 184 + 'px';
      return { month, count, node, grid, loaded: false, loading: null };
    }

    async function reload() {
      const mine = ++generation;
      for (const entry of sections.values()) observer.unobserve(entry.node);
      sections.clear();
      tiles.clear();
      months.replaceChildren();
      scrubber.replaceChildren();
      const timeline = await getJSON('/api/timeline?' + query());
      if (mine !== generation) return;
      columns = Math.max(1, Math.floor((months.clientWidth || 800) / 184));
      // Newest first, as the timeline lists them: each month goes at the end.
      const sectionNodes = document.createDocumentFragment();
      const links = document.createDocumentFragment();
      for (const { month, count } of timeline) {
        const entry = section(month, count);
        sectionNodes.append(entry.node);
        links.append(scrubberLink(entry));
        sections.set(month, entry);
      }
      months.append(sectionNodes);
      scrubber.append(links);
      for (const entry of sections.values()) observer.observe(entry.node);
      // The newest month is on screen: its assets are asked for now, not after the observer's first frame.
      if (timeline.length) loadMonth(sections.get(timeline[0].month));
      showCount();
    }

    // The count of what the album and filters show, or why nothing is shown.
    function showCount() {
      const total = [...sections.values()].reduce((sum, entry) => sum + entry.count, 0);
      say(countText(total));
      const hint = months.querySelector(':scope > .hint');
      if (total > 0) { if (hint) hint.remove(); return; }
      const filtered = filter.name || filter.from || filter.to || (filter.media && !options.media);
      const text = filtered ? 'Nothing matches these filters.' : 'Nothing here yet.';
      if (hint) hint.textContent = text; else months.append(el('p', { class: 'hint' }, text));
    }

    // After live changes, each month's count comes from the timeline again: a month
    // left empty goes, with its scrubber link, and the status line counts anew.
    let recountLater = null;
    function recountSoon() { clearTimeout(recountLater); recountLater = setTimeout(recount, 200); }
    async function recount() {
      const mine = generation;
      const timeline = await getJSON('/api/timeline?' + query());
      if (mine !== generation) return;
      const counts = new Map(timeline.map(({ month, count }) => [month, count]));
      for (const entry of [...sections.values()]) {
        if (counts.has(entry.month)) entry.count = counts.get(entry.month);
        else removeSection(entry);
      }
      for (const [month, count] of counts) if (!sections.has(month)) addSection(month, count);
      showCount();
    }

    function removeSection(entry) {
      observer.unobserve(entry.node);
      entry.node.remove();
      scrubber.querySelector('[data-month="' + entry.month + '"]').remove();
      for (const tile of entry.grid.querySelectorAll('[data-asset-id]')) tiles.delete(Number(tile.dataset.assetId));
      sections.delete(entry.month);
    }

    function scrubberLink(entry) {
      const link = el('a', { href: '#month-' + entry.month, 'data-month': entry.month }, monthTitle(entry.month));
      link.addEventListener('click', (event) => {
        event.preventDefault();
        entry.node.scrollIntoView();
        loadMonth(entry).then(() => { const first = entry.grid.querySelector('.tile'); if (first) first.focus({ preventScroll: true }); });
      });
      return link;
    }

    // A month that a new asset brings (the timeline had none of it).
    function addSection(month, count) {
      const entry = section(month, count);
      const later = [...sections.values()].filter((other) => other.month < month)
        .reduce((newest, other) => (newest && newest.month > other.month ? newest : other), null);
      months.insertBefore(entry.node, later ? later.node : null);
      const laterLink = later ? scrubber.querySelector('[data-month="' + later.month + '"]') : null;
      scrubber.insertBefore(scrubberLink(entry), laterLink);
      sections.set(month, entry);
      observer.observe(entry.node);
      return entry;
    }

    function loadMonth(entry) {
      if (!entry) return Promise.resolve();
      if (!entry.loading) {
        const mine = generation;
        entry.loading = (async () => {
          let cursor = null;
          do {
            const page = await getJSON('/api/assets?' + query({ month: entry.month, limit: 200, cursor }));
            if (mine !== generation) return;
            for (const asset of page.assets) place(asset, entry);
            cursor = page.next;
          } while (cursor);
          entry.loaded = true;
          entry.grid.style.minHeight = '';
        })();
      }
      return entry.loading;
    }

    function place(asset, entry) {
      if (tiles.has(asset.id)) return;
      const tile = tileFor(asset);
      const key = asset.created + '|' + String(asset.id).padStart(20, '0');
      const keyOf = (other) => other.dataset.created + '|' + other.dataset.assetId.padStart(20, '0');
      // Pages come newest first: most tiles go last, without a walk over the others.
      const last = entry.grid.lastElementChild;
      const after = !last || keyOf(last) > key ? null : [...entry.grid.children].find((other) => keyOf(other) < key);
      entry.grid.insertBefore(tile, after || null);
      tiles.set(asset.id, tile);
    }

    function belongs(asset) {
      const name = album || shared;
      if (asset.deleted) { if (smart !== 'Recently Deleted') return false; }
      else if (smart === 'Recently Deleted') return false;
      if (asset.hidden) { if (smart !== 'Hidden') return false; }
      else if (smart === 'Hidden') return false;
      if (name && !smart && !asset.albums.includes(name)) return false;
      if (smart === 'Videos' && asset.mediaType !== 'video') return false;
      if (smart === 'Live Photos' && !asset.subtypes.includes('live')) return false;
      if (smart === 'Animated' && !asset.subtypes.includes('animated')) return false;
      if (smart === 'Screenshots' && !asset.subtypes.includes('screenshot')) return false;
      if (smart === 'Favorites' && !asset.favorite) return false;
      if (kinds[smart] && !asset.subtypes.includes(kinds[smart])) return false;
      // The Bursts album shows each burst once, by its primary photo.
      if (smart === 'Bursts' && asset.burst && !asset.burst.primary) return false;
      if (filter.media === 'image' && asset.mediaType !== 'image') return false;
      if (filter.media === 'video' && asset.mediaType !== 'video') return false;
      if (filter.media === 'live' && !asset.subtypes.includes('live')) return false;
      if (Object.values(kinds).includes(filter.media) && !asset.subtypes.includes(filter.media)) return false;
      if (filter.name && !asset.originalName.toLowerCase().includes(filter.name.toLowerCase())) return false;
      const day = asset.created.slice(0, 10);
      if (filter.from && day < filter.from) return false;
      if (filter.to && day > filter.to) return false;
      return true;
    }

    function forget(id) {
      const tile = tiles.get(id);
      if (!tile) return;
      tile.remove();
      tiles.delete(id);
      selected.delete(id);
      updateAdd();
    }

    async function follow(change, id) {
      if (change === 'deleted' && smart !== 'Recently Deleted') { forget(id); return; }
      let asset;
      try { asset = await getJSON('/api/assets/' + id); } catch (error) { forget(id); return; }
      if (!belongs(asset)) { forget(id); return; }
      if (tiles.has(id)) return;
      const month = asset.created.slice(0, 7);
      const entry = sections.get(month) || addSection(month, 0);
      if (entry.count === 0 || entry.loaded) place(asset, entry);
      entry.count += 1;
    }
    onChange((change, id) => {
      if (change === 'reset') reload();
      else follow(change, id).then(recountSoon);
    });

    // The filters: media type (all, images, videos, Live Photos), name, date range.
    if (!options.media) {
      const group = el('div', { role: 'group', 'aria-label': 'Show' });
      const choices = [['', 'All'], ['image', 'Images'], ['video', 'Videos'], ['live', 'Live Photos']];
      for (const [value, label] of choices) {
        const button = el('button', { type: 'button', 'data-media': value, 'aria-pressed': value === '' ? 'true' : 'false' }, label);
        button.addEventListener('click', () => {
          filter.media = value;
          for (const other of group.children) other.setAttribute('aria-pressed', other === button ? 'true' : 'false');
          reload();
        });
        group.append(button);
      }
      tools.append(group);
      // Then the kinds of pictures that the library has (their smart albums are not empty).
      getJSON('/api/albums').then((albums) => {
        for (const album of albums) {
          const kind = album.kind === 'smart' && album.count > 0 ? kinds[album.name] : null;
          if (!kind || kind === kinds[smart]) continue;
          const button = el('button', { type: 'button', 'data-media': kind, 'aria-pressed': 'false' }, album.name);
          button.addEventListener('click', () => {
            filter.media = kind;
            for (const other of group.children) other.setAttribute('aria-pressed', other === button ? 'true' : 'false');
            reload();
          });
          group.append(button);
        }
      }, () => {});
    }
    const name = el('input', { type: 'search', placeholder: 'Name', 'aria-label': 'Search by original name' });
    const from = el('input', { type: 'date', 'aria-label': 'Captured from' });
    const to = el('input', { type: 'date', 'aria-label': 'Captured until' });
    let typing = null;
    for (const input of [name, from, to]) {
      input.addEventListener('input', () => {
        clearTimeout(typing);
        typing = setTimeout(() => {
          filter.name = name.value.trim(); filter.from = from.value; filter.to = to.value;
          reload();
        }, 250);
      });
    }
    tools.append(name, from, to);

    // The picker: a click picks a tile (up to the limit), Add returns them, Cancel returns nothing.
    const limit = Number(options.limit || 0);
    let add = null;
    function updateAdd() {
      if (!add) return;
      add.disabled = selected.size === 0;
      add.textContent = selected.size ? 'Add ' + selected.size : 'Add';
    }
    function toggle(id, tile) {
      if (selected.has(id)) {
        selected.delete(id);
      } else {
        if (limit === 1) {
          for (const other of selected) { const t = tiles.get(other); if (t) { t.classList.remove('selected'); t.setAttribute('aria-pressed', 'false'); } }
          selected.clear();
        } else if (limit && selected.size >= limit) {
          say('At most ' + limit + ' can be picked.');
          return;
        }
        selected.add(id);
      }
      tile.classList.toggle('selected', selected.has(id));
      tile.setAttribute('aria-pressed', selected.has(id) ? 'true' : 'false');
      updateAdd();
    }
    // The `pick` command's server ends once it has answered: its events are let go first.
    async function finish(url, message) {
      stopListening();
      try {
        await change('POST', url);
        main.replaceChildren(el('p', { class: 'hint' }, message));
        tools.replaceChildren();
      } catch (error) { say(String(error)); listen(); }
    }
    // The gallery's own picker (no `pick` command waiting): Add shows what was picked, Cancel goes home.
    async function showPicked() {
      const filter = new URLSearchParams();
      for (const name of ['media', 'limit', 'album']) if (options[name]) filter.set(name, options[name]);
      filter.set('ids', [...selected].join(','));
      try {
        const picked = await (await change('POST', '/api/pick?' + filter)).json();
        stopListening();
        main.replaceChildren(
          el('p', { class: 'hint' }, 'Picked ' + picked.length + ':'),
          el('ul', { class: 'picked' }, ...picked.map((asset) => el('li', { 'data-picked': asset.id }, asset.path))));
        tools.replaceChildren();
      } catch (error) { say(String(error)); }
    }
    if (pick) {
      add = el('button', { type: 'button', 'data-action': 'add', disabled: true }, 'Add');
      const cancel = el('button', { type: 'button', 'data-action': 'cancel' }, 'Cancel');
      if (options.ends) {
        add.addEventListener('click', () => finish('/api/pick?ids=' + [...selected].join(','), 'Added. You can close this tab.'));
        cancel.addEventListener('click', () => finish('/api/pick/cancel', 'Cancelled. You can close this tab.'));
      } else {
        add.addEventListener('click', showPicked);
        cancel.addEventListener('click', () => { location.href = '/'; });
      }
      tools.append(add, cancel);
      escape = () => cancel.click();
    } else {
      escape = () => { location.href = shared ? albumHref(shared) : '/'; };
    }
    return reload();
  }

  // `/assets/ID`: one asset large, its facts, its original to download.
  async function showAsset(id) {
    const asset = await getJSON('/api/assets/' + id);
    setTitle(asset.originalName);
    const original = '/api/assets/' + id + '/original';
    let view;
    if (asset.mediaType === 'video') {
      view = el('video', { src: original, controls: true, preload: 'metadata', 'aria-label': describe(asset) });
    } else {
      const image = el('img', { src: thumbnail(id, 1024), alt: describe(asset) });
      // Without a rendition the browser may still show the original itself; failing that, the placeholder.
      const shows = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'].includes(asset.mimeType);
      if (shows) image.addEventListener('error', () => { image.src = original; orPlaceholder(image, describe(asset)); }, { once: true });
      else orPlaceholder(image, describe(asset));
      view = image;
      if (isLive(asset)) {
        view = el('span', { class: 'live-frame live', tabindex: '0', 'aria-label': describe(asset) + ' (hover, press or focus to play)' },
          image, el('span', { class: 'badge', 'aria-hidden': 'true' }, 'LIVE'));
        livePlayer(view, asset);
      }
    }
    const facts = el('dl', { class: 'facts' });
    const fact = (label, ...value) => facts.append(el('dt', {}, label), el('dd', {}, ...value));
    fact('Captured', new Date(asset.created).toLocaleString(), ' (' + asset.created + ')');
    fact('Added', new Date(asset.added).toLocaleString());
    fact('Type', asset.mediaType + (asset.subtypes.length ? ' (' + asset.subtypes.join(', ') + ')' : '') + ', ' + asset.mimeType);
    // A file that cannot be decoded is filed without a size (0 × 0).
    fact('Dimensions', asset.width > 0 ? asset.width + ' × ' + asset.height : 'unknown (the file cannot be decoded)');
    if (asset.liveVideo) {
      const seconds = asset.liveVideo.duration === null ? '' : asset.liveVideo.duration.toFixed(1) + ' s, ';
      fact('Live Photo', seconds + (asset.liveVideo.embedded ? 'inside the picture' : 'paired video'));
    }
    fact('Size', (asset.size / 1048576).toFixed(2) + ' MB (' + asset.size + ' bytes)');
    const albums = el('span');
    asset.albums.forEach((name, index) => {
      if (index) albums.append(', ');
      albums.append(el('a', { href: albumHref(name), 'data-album': name }, name));
    });
    fact('Albums', asset.albums.length ? albums : '—');
    fact('Original name', asset.originalName);
    const actions = el('div', { class: 'actions' },
      el('a', { class: 'button', href: original, download: asset.originalName }, 'Download original'));
    if (token) {
      // One request at a time: the button waits for the answer before it can be
      // pressed again, so what it shows is what the server has.
      const toggle = (on, path, label) => {
        const button = el('button', { type: 'button', 'aria-pressed': String(on) }, label(on));
        button.addEventListener('click', async () => {
          const next = !on;
          button.disabled = true;
          try {
            await change(next ? 'PUT' : 'DELETE', '/api/assets/' + id + path);
            on = next;
            button.setAttribute('aria-pressed', String(on));
            button.textContent = label(on);
          } catch (error) { say(String(error)); }
          button.disabled = false;
        });
        return button;
      };
      const star = toggle(asset.favorite, '/favorite', (on) => on ? '★ Favorite' : '☆ Favorite');
      const hide = toggle(asset.hidden, '/hidden', (on) => on ? 'Unhide' : 'Hide');
      hide.dataset.action = 'hide';
      actions.append(star, hide);
    }
    main.replaceChildren(el('figure', { class: 'viewer' }, view), facts, actions);
    escape = () => { if (history.length > 1) history.back(); else location.href = '/'; };
  }

  const shown = kind === 'albums' ? showAlbums().then(() => onChange(() => { clearTimeout(showAlbums.later); showAlbums.later = setTimeout(showAlbums, 300); }))
    : kind === 'album' ? (setTitle(body.dataset.album), albumView({ album: body.dataset.album, smart: body.dataset.smartAlbum === 'true' }))
    : kind === 'pick' ? (setTitle('Pick' + (body.dataset.limit ? ' up to ' + body.dataset.limit : '')),
                         albumView({ album: body.dataset.album, smart: body.dataset.smartAlbum === 'true', media: body.dataset.media, limit: body.dataset.limit, pick: true, ends: body.dataset.pickEnds === 'true' }))
    : kind === 'asset' ? showAsset(body.dataset.asset) : Promise.resolve();
  shown.then(() => body.setAttribute('data-ready', 'true'), (error) => say(String(error)));
})();
