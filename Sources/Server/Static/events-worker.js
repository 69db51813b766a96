// The one `/api/events` stream that every page of an origin shares (a SharedWorker): a browser
// opens at most six connections to a host, so a stream per tab left the sixth tab, and every page
// after it, nothing to load with. A page posts `join` to be sent the events and `leave` when it is
// done with them; the stream is closed when no page is left, and the EventSource's own reconnects
// carry `Last-Event-ID`.
'use strict';
const pages = new Set();
let source = null;
function open() {
  source = new EventSource('/api/events');
  for (const name of ['filed', 'deleted', 'changed', 'reset']) {
    source.addEventListener(name, (event) => {
      for (const page of pages) page.postMessage({ name, data: event.data });
    });
  }
}
onconnect = (connection) => {
  const page = connection.ports[0];
  page.onmessage = (message) => {
    if (message.data === 'join') {
      pages.add(page);
      if (!source) open();
    } else if (message.data === 'leave') {
      pages.delete(page);
      if (pages.size === 0 && source) { source.close(); source = null; }
    }
  };
};
