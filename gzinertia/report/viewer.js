// gzinertia's HTML report viewer: builds one three.js scene per model file from the page's
// data (gzinertia/report/scene.py), with toggles, the findings linked to their links, and the
// test hook window.gzinertiaScene (what the scenes hold, read back from the three.js objects).
// World frame W: z up, metres. No network: everything is in the page.
(function () {
  "use strict";
  var started = performance.now();
  var data = JSON.parse(document.getElementById("gzinertia-data").textContent);
  var COLOURS = {collision: 0x4a90d9, visual: 0xb0b0b0, G: 0xd0021b, B: 0x1f77b4,
                 B_exact: 0x2ca02c, ellipsoid: 0xf5a623, fluid: 0x17becf, added_mass: 0x9467bd,
                 bem: 0x4b2a6e, highlight: 0xff00ff, com: 0x000000};
  var LAYERS = ["collision", "visual", "frames", "com", "ellipsoids", "fluid", "added_mass", "bem", "hydrostatics"];
  var LAYER_NAMES = {collision: "collisions", visual: "visuals", frames: "link frames",
                     com: "centres of mass", ellipsoids: "inertia ellipsoids",
                     fluid: "fluid ellipsoids", added_mass: "added-mass ellipsoids",
                     bem: "BEM panels", hydrostatics: "G, B, waterline"};

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function decode(b64, Type) {
    var bytes = atob(b64), buffer = new ArrayBuffer(bytes.length), view = new Uint8Array(buffer);
    for (var i = 0; i < bytes.length; i++) { view[i] = bytes.charCodeAt(i); }
    return new Type(buffer);
  }

  function matrix(R, p) {  // a three.js Matrix4 from a rotation (rows) and a translation
    var m = new THREE.Matrix4();
    m.set(R[0][0], R[0][1], R[0][2], p[0], R[1][0], R[1][1], R[1][2], p[1],
          R[2][0], R[2][1], R[2][2], p[2], 0, 0, 0, 1);
    return m;
  }

  function tagged(object, kind, link, layer) {
    object.userData = {kind: kind, link: link, layer: layer};
    return object;
  }

  function shapeMesh(m) {
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(decode(m.positions, Float32Array), 3));
    geometry.setIndex(new THREE.BufferAttribute(decode(m.indices, Uint32Array), 1));
    geometry.computeVertexNormals();
    var material = new THREE.MeshStandardMaterial({
      color: COLOURS[m.role], transparent: true, side: THREE.DoubleSide,
      opacity: m.role === "collision" ? 0.45 : 0.8, depthWrite: m.role !== "collision"});
    return tagged(new THREE.Mesh(geometry, material), "mesh", m.link, m.role);
  }

  function bemPanels(l) {  // the surface addmass --bem solved on, panel edges drawn
    var s = l.bem_surface, geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(decode(s.positions, Float32Array), 3));
    geometry.setIndex(new THREE.BufferAttribute(decode(s.indices, Uint32Array), 1));
    var material = new THREE.MeshBasicMaterial({color: COLOURS.bem, wireframe: true, transparent: true, opacity: 0.6});
    return tagged(new THREE.Mesh(geometry, material), "bem", l.name, "bem");
  }

  function marker(kind, p, radius, link, layer) {
    var mesh = new THREE.Mesh(new THREE.SphereGeometry(radius, 16, 12),
                              new THREE.MeshBasicMaterial({color: COLOURS[kind]}));
    mesh.position.set(p[0], p[1], p[2]);
    return tagged(mesh, kind, link, layer);
  }

  function ellipsoid(link, e, kind, layer) {
    var mesh = new THREE.Mesh(new THREE.SphereGeometry(1, 24, 16), new THREE.MeshStandardMaterial(
      {color: COLOURS[kind], transparent: true, opacity: 0.35, depthWrite: false,
       wireframe: kind === "fluid"}));
    mesh.applyMatrix4(matrix(e.R_WP, e.centre).multiply(
      new THREE.Matrix4().makeScale(e.semi_axes[0], e.semi_axes[1], e.semi_axes[2])));
    return tagged(mesh, kind, link.name, layer);
  }

  function extent(model) {  // the size of what is drawn: link origins, CoMs and meshes
    var box = new THREE.Box3();
    model.links.forEach(function (l) {
      [l.p_WBo, l.p_WBcm].forEach(function (p) { if (p) { box.expandByPoint(new THREE.Vector3(p[0], p[1], p[2])); } });
    });
    return box;
  }

  function waterline(z, box, size) {
    var centre = box.getCenter(new THREE.Vector3()), side = 1.5 * size;
    var plane = new THREE.Mesh(new THREE.PlaneGeometry(side, side), new THREE.MeshBasicMaterial(
      {color: 0x3fa7d6, transparent: true, opacity: 0.18, side: THREE.DoubleSide, depthWrite: false}));
    plane.position.set(centre.x, centre.y, z);
    return tagged(plane, "waterline", null, "hydrostatics");
  }

  function addHydrostatics(scene, model, box, size) {
    var h = model.hydrostatics, r = 0.015 * size;
    if (!h) { return; }
    h.models.forEach(function (m) {
      [["G", m.p_WG], ["B", m.p_WB], ["B_exact", m.p_WB_exact]].forEach(function (k) {
        if (k[1]) { scene.add(marker(k[0], k[1], r, m.name, "hydrostatics")); }
      });
      var f = m.flotation;
      var z = f ? f.z_surface : (h.fluid.kind === "graded" && h.fluid.layers.length ? h.fluid.layers[0][0] : null);
      if (z !== null && z !== undefined) { scene.add(waterline(z, box, size)); }
    });
  }

  function buildScene(model) {
    var scene = new THREE.Scene(), box = extent(model);
    scene.background = new THREE.Color(0xffffff);
    scene.add(new THREE.AmbientLight(0xffffff, 0.6));
    var sun = new THREE.DirectionalLight(0xffffff, 0.6);
    sun.position.set(1, -2, 3);
    scene.add(sun);
    model.meshes.forEach(function (m) {
      var mesh = shapeMesh(m);
      mesh.geometry.computeBoundingBox();
      box.union(mesh.geometry.boundingBox);
      scene.add(mesh);
    });
    var size = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-3);
    model.links.forEach(function (l) {
      if (l.p_WBo && l.R_WB) {
        var axes = new THREE.AxesHelper(0.1 * size);
        axes.applyMatrix4(matrix(l.R_WB, l.p_WBo));
        scene.add(tagged(axes, "frame", l.name, "frames"));
      }
      if (l.p_WBcm) { scene.add(marker("com", l.p_WBcm, 0.008 * size, l.name, "com")); }
      if (l.ellipsoid && l.ellipsoid.semi_axes) { scene.add(ellipsoid(l, l.ellipsoid, "ellipsoid", "ellipsoids")); }
      l.fluid_ellipsoids.forEach(function (e) {
        if (e.semi_axes && e.R_WP) { scene.add(ellipsoid(l, e, "fluid", "fluid")); }
      });
      var a = l.added_mass_ellipsoid;
      if (a && a.semi_axes && a.R_WP) { scene.add(ellipsoid(l, a, "added_mass", "added_mass")); }
      if (l.bem_surface) { scene.add(bemPanels(l)); }
    });
    addHydrostatics(scene, model, box, size);
    return {scene: scene, box: box, size: size};
  }

  // ------------------------------------------------------------------ the view
  var holder = document.getElementById("gzinertia-view");
  var renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  holder.appendChild(renderer.domElement);
  var camera = new THREE.PerspectiveCamera(40, 1, 1e-4, 1e5);
  camera.up.set(0, 0, 1);
  var controls = new THREE.OrbitControls(camera, renderer.domElement);
  var scenes = data.models.map(buildScene);
  var current = 0, hidden = {}, highlighted = [];

  function render() { renderer.render(scenes[current].scene, camera); }
  controls.addEventListener("change", render);

  function resize() {
    var w = holder.clientWidth || 800, h = holder.clientHeight || 600;
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    render();
  }
  window.addEventListener("resize", resize);

  function frameView(target, size) {
    camera.near = size / 1000;
    camera.far = size * 1000;
    camera.position.set(target.x + 1.2 * size, target.y - 1.6 * size, target.z + 0.9 * size);
    controls.target.copy(target);
    controls.update();
    camera.updateProjectionMatrix();
  }

  function applyLayers() {
    scenes[current].scene.traverse(function (o) {
      if (o.userData && o.userData.layer) { o.visible = !hidden[o.userData.layer]; }
    });
    render();
  }

  function highlight(link) {
    highlighted.forEach(function (h) { h.object.material.color.setHex(h.colour); });
    highlighted = [];
    scenes[current].scene.traverse(function (o) {
      if (o.userData && o.userData.link === link && o.material && o.material.color &&
          o.userData.kind === "mesh") {
        highlighted.push({object: o, colour: o.material.color.getHex()});
        o.material.color.setHex(COLOURS.highlight);
      }
    });
    document.querySelectorAll("[data-link]").forEach(function (row) {
      row.classList.toggle("selected", row.getAttribute("data-link") === link);
    });
    render();
  }

  // ------------------------------------------------------------------ the panels
  function fmt(x) { return x === null || x === undefined ? "—" : (typeof x === "number" ? Number(x.toPrecision(4)).toString() : String(x)); }
  function vec(v) { return v ? "(" + v.map(fmt).join(", ") + ")" : "—"; }

  function table(headers, rows) {
    var t = el("table"), tr = el("tr");
    headers.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    t.appendChild(tr);
    rows.forEach(function (r) { t.appendChild(r); });
    return t;
  }

  function row(cells, link) {
    var tr = el("tr", link ? {"data-link": link} : {});
    cells.forEach(function (c) { tr.appendChild(typeof c === "string" ? el("td", {}, c) : c); });
    if (link) { tr.addEventListener("click", function () { highlight(link); }); }
    return tr;
  }

  function findingsPanel(model) {
    var box = el("section", {id: "gzinertia-findings"});
    box.appendChild(el("h2", {}, "Audit findings (" + model.findings.length + ")"));
    if (!model.findings.length) { box.appendChild(el("p", {}, "The audit found nothing in this file.")); }
    model.findings.forEach(function (f) {
      var p = el("p", {"class": "finding " + f.severity});
      var rule = el("a", {href: f.page, target: "_blank", rel: "noopener"}, f.code);
      p.appendChild(rule);
      p.appendChild(document.createTextNode(" " + f.severity + " line " + f.line + " "));
      if (f.link) {
        var go = el("a", {href: "#", "data-link": f.link, "class": "link"}, f.link);
        go.addEventListener("click", function (ev) { ev.preventDefault(); highlight(f.link); });
        p.appendChild(go);
      }
      p.appendChild(document.createTextNode(": " + f.message));
      box.appendChild(p);
    });
    return box;
  }

  function hydroPanel(model) {
    var box = el("section", {id: "gzinertia-hydrostatics"}), h = model.hydrostatics;
    box.appendChild(el("h2", {}, "Hydrostatics"));
    if (!h) { box.appendChild(el("p", {}, "not computed (see below)")); return box; }
    box.appendChild(el("p", {}, "fluid: " + h.fluid.kind + ", " + fmt(h.fluid.density) + " kg/m³ (" + h.fluid.origin + ")" + (h.fluid.caveat ? "; " + h.fluid.caveat : "")));
    box.appendChild(table(["model", "G (m)", "B Gazebo (m)", "B exact (m)", "net (N)", "waterline z", "draft (m)", "heel (°)", "trim (°)"],
      h.models.map(function (m) {
        var f = m.flotation || {}, deg = function (a) { return a === undefined || a === null ? "—" : fmt(a * 180 / Math.PI); };
        return row([m.name, vec(m.p_WG), vec(m.p_WB), vec(m.p_WB_exact), fmt(m.net), fmt(f.z_surface), fmt(f.draft), deg(f.roll), deg(f.pitch)]);
      })));
    var curves = Object.keys(h.righting || {});
    curves.forEach(function (name) { box.appendChild(rightingChart(name, h.righting[name])); });
    if (!curves.length) { box.appendChild(el("p", {}, "No righting-moment curve: no model floats at a free surface (--waterline Z gives one).")); }
    return box;
  }

  var SVG = "http://www.w3.org/2000/svg";  // a namespace name, nothing is fetched

  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  function rightingChart(name, c) {  // GZ (m) against heel (degrees), zero line, axes' ranges
    var w = 360, h = 160, pad = 36, lo = Math.min(0, Math.min.apply(null, c.GZ)),
        hi = Math.max(0, Math.max.apply(null, c.GZ)), span = (hi - lo) || 1,
        x = function (d) { return pad + (w - 2 * pad) * d / 90; },
        y = function (g) { return h - pad / 2 - (h - pad) * (g - lo) / span; };
    var chart = svg("svg", {width: w, height: h, "class": "righting"});
    chart.appendChild(svg("line", {x1: x(0), x2: x(90), y1: y(0), y2: y(0), stroke: "#999"}));
    var line = svg("polyline", {fill: "none", stroke: "#d0021b", "stroke-width": 2, "data-model": name,
      points: c.heel_deg.map(function (d, i) { return x(d) + "," + y(c.GZ[i]); }).join(" ")});
    chart.appendChild(line);
    [[x(0), h - 4, "0°"], [x(90) - 16, h - 4, "90°"], [2, y(hi) + 4, fmt(hi)], [2, y(lo), fmt(lo)]].forEach(function (t) {
      var text = svg("text", {x: t[0], y: t[1], "font-size": 10});
      text.textContent = t[2];
      chart.appendChild(text);
    });
    var box = el("figure");
    box.appendChild(chart);
    box.appendChild(el("figcaption", {}, name + ": righting arm GZ (m) against heel, 0 to 90° (trim fixed); largest " + fmt(Math.max.apply(null, c.GZ)) + " m at " + fmt(c.heel_deg[c.GZ.indexOf(Math.max.apply(null, c.GZ))]) + "°"));
    return box;
  }

  function linksPanel(model) {
    var box = el("section", {id: "gzinertia-links"}), byName = {};
    model.links.forEach(function (l) { byName[l.name] = l; });
    box.appendChild(el("h2", {}, "Links (show --json)"));
    box.appendChild(el("p", {"class": "legend"}, model.ellipsoid_label));
    box.appendChild(table(["link", "mass (kg)", "p_BoBcm_B (m)", "principal moments (kg·m²)", "ellipsoid semi-axes (m)", "drawn ×", "BEM panels (size m)"],
      model.show.links.map(function (l) {
        var e = (byName[l.name] || {}).ellipsoid, b = (byName[l.name] || {}).bem_surface;
        return row([l.name, fmt(l.mass), vec(l.p_BoBcm_B), vec(l.principal_moments), vec(l.equivalent_ellipsoid_semi_axes), e ? fmt(e.scale) : "—",
                    b ? b.panels + " (" + fmt(b.panel_size) + ")" : "—"], l.name);
      })));
    var details = el("details");
    details.appendChild(el("summary", {}, "show --json"));
    details.appendChild(el("pre", {}, JSON.stringify(model.show, null, 1)));
    box.appendChild(details);
    return box;
  }

  function notDrawnPanel(model) {
    var box = el("section", {id: "gzinertia-not-drawn"});
    box.appendChild(el("h2", {}, "Not drawn, approximated, or warned about (" + model.not_drawn.length + ")"));
    var list = el("ul");
    model.not_drawn.forEach(function (s) { list.appendChild(el("li", {}, s)); });
    box.appendChild(model.not_drawn.length ? list : el("p", {}, "Everything the file names is drawn, as it is."));
    return box;
  }

  function showModel(i) {
    current = i;
    var model = data.models[i], panels = document.getElementById("gzinertia-panels");
    panels.innerHTML = "";
    [hydroPanel, findingsPanel, linksPanel, notDrawnPanel].forEach(function (f) { panels.appendChild(f(model)); });
    frameView(scenes[i].box.getCenter(new THREE.Vector3()), scenes[i].size);
    applyLayers();
  }

  var toggles = document.getElementById("gzinertia-toggles");
  LAYERS.forEach(function (layer) {
    var label = el("label"), box = el("input", {type: "checkbox", "data-layer": layer});
    box.checked = layer !== "visual";
    hidden[layer] = !box.checked;
    box.addEventListener("change", function () { hidden[layer] = !box.checked; applyLayers(); });
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + LAYER_NAMES[layer]));
    toggles.appendChild(label);
  });
  var skipped = document.getElementById("gzinertia-skipped");
  if (data.skipped.length) {
    skipped.hidden = false;
    skipped.querySelector("summary").textContent = data.skipped.length + " file(s) not in the report";
    data.skipped.forEach(function (s) { skipped.querySelector("ul").appendChild(el("li", {}, s)); });
  }
  var chooser = document.getElementById("gzinertia-file");
  data.models.forEach(function (m, i) { chooser.appendChild(el("option", {value: String(i)}, m.file)); });
  chooser.addEventListener("change", function () { showModel(Number(chooser.value)); });

  // ------------------------------------------------------------------ the test hook
  function readBack(s, model, shown) {  // the curves only of the file whose panels are shown
    var out = {file: model.file, links: [], meshes: 0, G: {}, B: {}, B_exact: {}, frames: 0, ellipsoids: 0, fluid: [], added_mass: [], bem: []};
    s.scene.traverse(function (o) {
      var u = o.userData || {};
      if (u.kind === "mesh") { out.meshes += 1; }
      if (u.kind === "frame") { out.frames += 1; out.links.push(u.link); }
      if (u.kind === "ellipsoid") { out.ellipsoids += 1; }
      if (u.kind === "fluid") { out.fluid.push({link: u.link, centre: [o.position.x, o.position.y, o.position.z]}); }
      if (u.kind === "added_mass") { out.added_mass.push({link: u.link, centre: [o.position.x, o.position.y, o.position.z]}); }
      if (u.kind === "bem") { out.bem.push({link: u.link, panels: o.geometry.index.count / 3}); }
      if (u.kind === "G" || u.kind === "B" || u.kind === "B_exact") { out[u.kind][u.link] = [o.position.x, o.position.y, o.position.z]; }
    });
    out.righting = shown ? {} : null;
    if (shown) document.querySelectorAll("polyline[data-model]").forEach(function (line) {
      var c = model.hydrostatics.righting[line.getAttribute("data-model")];
      out.righting[line.getAttribute("data-model")] = {points: line.getAttribute("points").split(" ").length, heel_deg: c.heel_deg, GZ: c.GZ};
    });
    return out;
  }

  showModel(0);
  resize();
  // #link=NAME (URL-encoded) highlights that link of the first file when the page opens
  var asked = location.hash.indexOf("#link=") === 0 ? decodeURIComponent(location.hash.slice(6)) : null;
  if (asked) { highlight(asked); }
  window.gzinertiaScene = {files: scenes.map(function (s, i) { return readBack(s, data.models[i], i === current); }),
                           ready_ms: performance.now(),  // since navigation started
                           build_ms: performance.now() - started,  // this script's own part
                           skipped: Array.prototype.map.call(skipped.querySelectorAll("li"), function (li) { return li.textContent; }),
                           highlighted: highlighted.map(function (h) { return h.object.userData.link; }),
                           canvas: [renderer.domElement.width, renderer.domElement.height]};
  var hook = el("pre", {id: "gzinertia-scene", hidden: "hidden"});
  hook.textContent = JSON.stringify(window.gzinertiaScene);
  document.body.appendChild(hook);
})();
