/// The page `tilestore serve` answers at `/` (to browsers) and `/viewer`: MapLibre GL JS (from
/// `/viewer/maplibre-gl.js`, served from a local directory, never a CDN) showing the store's
/// style, or a plain style drawn from the first tileset's vector layers when the store has no
/// style; the tilesets and regions listed; two clicks ask `/route/v1/driving/…` (passed to
/// `route-query serve`) for a route, drawn as a line with its steps listed.
///
/// For tests and scripts: `#lon,lat,zoom` sets the view; `?route=lon,lat;lon,lat` asks for a route
/// once the map is idle; `document.title` ends in `idle` once the map first went idle, then in
/// `route` once a route is drawn (or `route-error`); `window.offgrid` holds the state.
enum ViewerPage {
    static func html(hasAssets: Bool) -> String {
        guard hasAssets else {
            return """
            <!doctype html><html><head><meta charset="utf-8"><title>offgrid viewer: no MapLibre GL JS</title></head>
            <body><p>This server has no MapLibre GL JS files: start <code>tilestore serve</code> with
            <code>--viewer-assets DIR</code> (a directory holding maplibre-gl.js and maplibre-gl.css, e.g. the PyPI
            <code>maplibre</code> package's <code>srcjs/</code>; <code>make</code> sets <code>OFFGRID_MAPLIBRE_DIR</code>).
            The index is at <a href="/index.json">/index.json</a>.</p></body></html>
            """
        }
        return page
    }

    static let page = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>offgrid viewer: loading</title>
    <link rel="stylesheet" href="/viewer/maplibre-gl.css">
    <script src="/viewer/maplibre-gl.js"></script>
    <style>
      html, body { margin: 0; height: 100%; font: 13px/1.4 sans-serif; }
      #map { position: absolute; top: 0; bottom: 0; left: 0; right: 280px; }
      #side { position: absolute; top: 0; bottom: 0; right: 0; width: 272px; overflow: auto; padding: 4px; background: #f7f7f5; }
      h2 { font-size: 13px; margin: 8px 0 2px; }
      ul, ol { margin: 0; padding-left: 18px; }
      #status { color: #555; }
    </style>
    </head>
    <body>
    <div id="map"></div>
    <div id="side">
      <h2>Tilesets</h2><ul id="tilesets"></ul>
      <h2>Regions</h2><ul id="regions"></ul>
      <h2>Route</h2><div id="status">Click two points on the map.</div><ol id="steps"></ol>
    </div>
    <script>
    "use strict";
    const state = window.offgrid = { idle: false, route: null, error: null, clicks: [] };
    function setTitle(word) { document.title = "offgrid viewer: " + word; }
    function item(list, text) { const li = document.createElement("li"); li.textContent = text; document.getElementById(list).appendChild(li); }

    function plainStyle(tj) {
      const layers = [{ id: "background", type: "background", paint: { "background-color": "#f2efe9" } }];
      const colors = ["#7aa5d6", "#9c9c9c", "#c4a484", "#6a9955", "#d08770", "#b48ead"];
      (tj.vector_layers || []).forEach((l, i) => {
        const c = colors[i % colors.length], source = "tiles";
        layers.push({ id: l.id + "-fill", type: "fill", source, "source-layer": l.id, filter: ["==", ["geometry-type"], "Polygon"],
                      paint: { "fill-color": c, "fill-opacity": 0.35 } });
        layers.push({ id: l.id + "-line", type: "line", source, "source-layer": l.id, filter: ["==", ["geometry-type"], "LineString"],
                      paint: { "line-color": c, "line-width": 1 } });
        layers.push({ id: l.id + "-point", type: "circle", source, "source-layer": l.id, filter: ["==", ["geometry-type"], "Point"],
                      paint: { "circle-color": c, "circle-radius": 2 } });
      });
      return { version: 8, sources: { tiles: { type: "vector", url: tj.url } }, layers };
    }

    function view(tj) {
      const h = location.hash.slice(1).split(",").map(Number);
      if (h.length === 3 && h.every(Number.isFinite)) return { center: [h[0], h[1]], zoom: h[2] };
      const c = tj && tj.center ? tj.center : [0, 0, 1];
      return { center: [c[0], c[1]], zoom: c[2] };
    }

    async function start() {
      const index = await (await fetch("/index.json")).json();
      index.tilesets.forEach(t => item("tilesets", t.name + " (z" + t.minzoom + "-" + t.maxzoom + ")"));
      (index.regions || []).forEach(r => item("regions", r.id + " (" + r.tileset + ")"));
      if (!index.regions || index.regions.length === 0) item("regions", "none");
      let tj = null;
      if (index.tilesets.length) { tj = await (await fetch(index.tilesets[0].tilejson)).json(); tj.url = index.tilesets[0].tilejson; }
      const style = index.styles.length ? index.styles[0].style : (tj ? plainStyle(tj) : { version: 8, sources: {}, layers: [] });
      state.style = typeof style === "string" ? style : "plain";
      const map = window.offgridMap = new maplibregl.Map(Object.assign({ container: "map", style, attributionControl: false,
                                                                         preserveDrawingBuffer: true }, view(tj)));
      map.on("error", e => { state.error = String(e.error && e.error.message || e); });
      map.once("idle", () => { state.idle = true; setTitle("idle"); const q = new URLSearchParams(location.search).get("route"); if (q) route(map, q); });
      map.on("click", e => {
        state.clicks.push([e.lngLat.lng, e.lngLat.lat]);
        if (state.clicks.length === 2) { route(map, state.clicks.map(p => p[0].toFixed(6) + "," + p[1].toFixed(6)).join(";")); state.clicks = []; }
      });
    }

    async function route(map, coordinates) {
      const status = document.getElementById("status"), steps = document.getElementById("steps");
      status.textContent = "Routing…";
      steps.innerHTML = "";
      try {
        const r = await fetch("/route/v1/driving/" + coordinates + "?overview=full&geometries=geojson&steps=true");
        const body = await r.json();
        if (!r.ok || body.code !== "Ok") throw new Error(body.message || body.code || ("HTTP " + r.status));
        const best = body.routes[0];
        const data = { type: "Feature", properties: {}, geometry: best.geometry };
        if (map.getSource("route")) map.getSource("route").setData(data);
        else {
          map.addSource("route", { type: "geojson", data });
          map.addLayer({ id: "route", type: "line", source: "route", layout: { "line-cap": "round", "line-join": "round" },
                         paint: { "line-color": "#e0115f", "line-width": 6 } });
        }
        best.legs.forEach(leg => leg.steps.forEach(s => {
          const m = s.maneuver, what = m.type + (m.modifier ? " " + m.modifier : "");
          item("steps", what + (s.name ? " onto " + s.name : "") + " — " + Math.round(s.distance) + " m");
        }));
        status.textContent = (best.distance / 1000).toFixed(1) + " km, " + Math.round(best.duration / 60) + " min";
        state.route = { distance: best.distance, duration: best.duration, steps: steps.children.length, points: best.geometry.coordinates.length };
        map.once("idle", () => setTitle("route"));
        map.triggerRepaint();
      } catch (e) {
        state.error = String(e.message || e);
        status.textContent = "No route: " + state.error;
        setTitle("route-error");
      }
    }

    start().catch(e => { state.error = String(e.message || e); setTitle("error"); });
    </script>
    </body>
    </html>
    """
}
