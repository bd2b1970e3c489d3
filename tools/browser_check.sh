#!/usr/bin/env bash
# tools/browser_check.sh — proves, in a real headless Chromium, that trace outputs render and are
# not blank, and leaves a PNG screenshot of each one (for the README, or to look at).
#
#   tools/browser_check.sh OUTDIR FILE...
#
# FILE is .svg or .html (a self-contained picture: served from a local HTTP server; a request
# for any other resource fails the check) or .json (Chrome Trace Event Format: loaded into a
# local copy of speedscope with #profileURL=...). Each FILE gives OUTDIR/<name>.png (for a
# trace: its first thread, as speedscope opens it; BEAMLET_THREAD_PNGS=1 adds
# OUTDIR/<name>.thread<k>.png for the others) and one line: `ok FILE -> PNG (...)` or
# `FAIL FILE: why`. Exit 1 if any check failed, 2 on bad usage. An SVG is shot at its own
# size, at most 8000x8000 px (the top-left part of a larger one); HTML as a 1280-wide full page.
#
# Not blank: the screenshot has at least BEAMLET_MIN_NONBG_PCT % (default 2) pixels that differ
# by more than 8 in a channel from its background (its most frequent colour) and at least
# BEAMLET_MIN_COLOURS (default 8) distinct colours. A picture must also be well-formed, run
# without uncaught script errors, and as SVG (also inline in HTML) hold a shape (rect, line,
# path, polyline, polygon, circle, ellipse) and a non-empty <text>. A trace must open in
# speedscope's flame chart (not its drop zone, an error or an alert), every thread (up to
# BEAMLET_MAX_THREADS, 32) must show, one at least passing the pixel rule below the toolbar (an
# idle process draws little), and no E may be dropped by speedscope as matching no open B
# (speedscope matches by name: an E needs its B's name). speedscope ignores i, s and f events.
#
# Installs what it needs, idempotently: Debian's chromium (if /usr/bin/chromium is missing) and
# fonts-noto-color-emoji (speedscope's toolbar) with apt-get, and exact versions of
# playwright-core and speedscope with npm into ${BEAMLET_BROWSER_CACHE:-$HOME/.cache/beamlet/browser}
# (nothing global, no browser download). Leaves no process behind: the HTTP server lives in the
# Node process, which closes Chromium; a trap ends Node and anything still using this run's
# Chromium profile, also on error or ^C. Takes about 1 s per file once installed; each step
# (loading, rendering) may take BEAMLET_BROWSER_TIMEOUT_MS (default 20000): a trace of a
# million events (100 MB) needs minutes.
set -euo pipefail

PLAYWRIGHT_CORE_VERSION=1.65.1
SPEEDSCOPE_VERSION=1.25.0

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
OUTDIR=$1; shift
for f in "$@"; do
  case "$f" in
    *.svg|*.SVG|*.html|*.htm|*.json) ;;
    *) echo "browser_check: $f: not .svg, .html or .json" >&2; exit 2 ;;
  esac
  [ -f "$f" ] || { echo "browser_check: $f: no such file" >&2; exit 2; }
done
mkdir -p "$OUTDIR"

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
CHROMIUM=${BEAMLET_CHROMIUM:-/usr/bin/chromium}
missing=""
[ -x "$CHROMIUM" ] || { missing="chromium"; CHROMIUM=/usr/bin/chromium; }
# speedscope's toolbar labels start with emoji: without a colour emoji font they are boxes.
dpkg-query -W -f='${Status}' fonts-noto-color-emoji 2>/dev/null | grep -q "install ok installed" ||
  missing="$missing fonts-noto-color-emoji"
if [ -n "$missing" ]; then
  echo "browser_check: installing Debian's$missing" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
command -v node >/dev/null && command -v npm >/dev/null || {
  echo "browser_check: installing nodejs and npm" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
}

CACHE=${BEAMLET_BROWSER_CACHE:-$HOME/.cache/beamlet/browser}
mkdir -p "$CACHE"
installed_version() {  # $1 = package name; prints its installed version or nothing
  node -e 'try{console.log(require(process.argv[1]).version)}catch(e){}' \
    "$CACHE/node_modules/$1/package.json"
}
(
  flock 9
  if [ "$(installed_version playwright-core)" != "$PLAYWRIGHT_CORE_VERSION" ] ||
     [ "$(installed_version speedscope)" != "$SPEEDSCOPE_VERSION" ]; then
    echo "browser_check: npm install into $CACHE" >&2
    cat >"$CACHE/package.json" <<EOF
{
  "name": "beamlet-browser-check",
  "private": true,
  "description": "installed by beamlet's tools/browser_check.sh",
  "dependencies": {
    "playwright-core": "$PLAYWRIGHT_CORE_VERSION",
    "speedscope": "$SPEEDSCOPE_VERSION"
  }
}
EOF
    (cd "$CACHE" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund \
       --ignore-scripts --loglevel=error >&2)
  fi
) 9>"$CACHE/.lock"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/beamlet-browser-check.XXXXXX")
NODE_PID=""
cleanup() {
  if [ -n "$NODE_PID" ] && kill -0 "$NODE_PID" 2>/dev/null; then
    kill -TERM "$NODE_PID" 2>/dev/null || true   # Playwright closes Chromium on SIGTERM
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$NODE_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$NODE_PID" 2>/dev/null || true
  fi
  # Anything still running with this run's Chromium profile (under $WORK) is ours: end it.
  local p
  for p in /proc/[0-9]*; do
    if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "--user-data-dir=$WORK/"; then
      kill -KILL "${p#/proc/}" 2>/dev/null || true
    fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "browser_check: interrupted" >&2; exit 130' INT
trap 'echo "browser_check: interrupted" >&2; exit 143' TERM

cat >"$WORK/check.cjs" <<'JS'
'use strict';
// Node side of tools/browser_check.sh: a local HTTP server (node:http) for the inputs and
// speedscope's static build, Chromium driven by playwright-core, a PNG decoder (node:zlib).
const fs = require('fs'), path = require('path'), http = require('http'), zlib = require('zlib');
const env = process.env;
const { chromium } = require(path.join(env.BC_CACHE, 'node_modules', 'playwright-core'));
const SPEEDSCOPE = path.join(env.BC_CACHE, 'node_modules', 'speedscope', 'dist', 'release');
const MIN_PCT = parseFloat(env.BEAMLET_MIN_NONBG_PCT || '2');
const MIN_COLOURS = parseInt(env.BEAMLET_MIN_COLOURS || '8', 10);
const TIMEOUT = parseInt(env.BEAMLET_BROWSER_TIMEOUT_MS || '20000', 10);  // per step (a 100 MB trace needs minutes)
const MAX_THREADS = parseInt(env.BEAMLET_MAX_THREADS || '32', 10);
const THREAD_PNGS = env.BEAMLET_THREAD_PNGS === '1';
const [outdir, ...files] = process.argv.slice(2);
// Told to stop (by the script's trap): Playwright closes Chromium; say nothing more.
let stopping = false;
process.once('SIGTERM', () => { stopping = true; });
const say = line => { if (!stopping) console.log(line); };

const TYPES = { '.svg': 'image/svg+xml', '.html': 'text/html', '.htm': 'text/html',
  '.json': 'application/json', '.js': 'text/javascript', '.css': 'text/css',
  '.png': 'image/png', '.ico': 'image/x-icon', '.wasm': 'application/wasm',
  '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.txt': 'text/plain', '.md': 'text/plain' };

// /file/<i>/<basename> is input i, /speedscope/... speedscope's build; anything else is a 404
// and, while a picture is checked, a sign that it is not self-contained.
let served = [];      // URL paths asked for, reset per file
function serve(req, res) {
  const raw = new URL(req.url, 'http://x').pathname;
  served.push(raw);
  let p;
  try { p = decodeURIComponent(raw); } catch (e) { p = raw; }
  let file = null, m;
  if ((m = /^\/file\/(\d+)\/(.+)$/.exec(p)) && +m[1] < files.length &&
      m[2] === path.basename(files[+m[1]]))
    file = files[+m[1]];
  else if ((m = /^\/speedscope\/([^/]+)$/.exec(p)) && !m[1].startsWith('.'))
    file = path.join(SPEEDSCOPE, m[1]);
  if (!file || !fs.existsSync(file)) { res.writeHead(404); res.end('not found'); return; }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
                       'Cache-Control': 'no-store' });
  fs.createReadStream(file).pipe(res);
}

// PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes) -> {width, height, rgb}
function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let off = 8, width = 0, height = 0, depth = 0, ctype = 0, interlace = 0; const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString('ascii', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; ctype = data[9]; interlace = data[12];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  if (depth !== 8 || (ctype !== 2 && ctype !== 6) || interlace !== 0)
    throw new Error(`unsupported PNG (depth ${depth}, colour type ${ctype}, interlace ${interlace})`);
  const bpp = ctype === 6 ? 4 : 3, stride = width * bpp;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, dst = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[dst + x - bpp] : 0, b = y > 0 ? px[dst - stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[dst - stride + x - bpp] : 0;
      let v = raw[src + x];
      switch (f) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
                  v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; break; }
        default: throw new Error('bad PNG filter ' + f);
      }
      px[dst + x] = v & 255;
    }
  }
  return { width, height, bpp, px };
}

// Distinct colours and the share of pixels (rows top.. only) that differ from the most frequent
// colour, taken as the background, by more than 8 in some channel.
function pixelStats(png, top = 0) {
  const { width, height, bpp, px } = png, counts = new Map();
  const y0 = Math.min(top, height);
  for (let y = y0; y < height; y++)
    for (let x = 0, i = y * width * bpp; x < width; x++, i += bpp) {
      const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2];
      counts.set(k, (counts.get(k) || 0) + 1);
    }
  const total = width * (height - y0);
  if (total === 0) return { colours: 0, pct: 0, bg: 0 };
  let bg = 0, best = -1;
  for (const [k, n] of counts) if (n > best) { best = n; bg = k; }
  const br = bg >> 16, bgG = (bg >> 8) & 255, bb = bg & 255;
  let differing = 0;
  for (const [k, n] of counts)
    if (Math.max(Math.abs((k >> 16) - br), Math.abs(((k >> 8) & 255) - bgG), Math.abs((k & 255) - bb)) > 8)
      differing += n;
  return { colours: counts.size, pct: 100 * differing / total, bg };
}
const hex = c => '#' + c.toString(16).padStart(6, '0');
const pixelProblem = s => s.pct < MIN_PCT || s.colours < MIN_COLOURS
  ? `looks blank: ${s.colours} distinct colours (need ${MIN_COLOURS}), ` +
    `${s.pct.toFixed(1)}% differ from background ${hex(s.bg)} (need ${MIN_PCT}%)` : null;
const nextFrames = page => page.evaluate(() => new Promise(r =>
  requestAnimationFrame(() => requestAnimationFrame(() => r()))));

async function checkPicture(page, url, pngPath) {
  const res = await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT });
  if (!res || !res.ok()) return { fail: `HTTP ${res ? res.status() : 'no response'} for the page` };
  await page.evaluate(() => document.fonts ? document.fonts.ready.then(() => 0) : 0).catch(() => 0);
  const dom = await page.evaluate(() => {
    // A file that is not well-formed XML becomes Chromium's error page around a <parsererror>.
    const perr = document.getElementsByTagNameNS('*', 'parsererror')[0];
    if (perr) return { parseError: perr.textContent.replace(/\s+/g, ' ').trim() };
    const root = document.documentElement, isSvg = root.localName === 'svg';
    const svgs = isSvg ? [root] : [...document.querySelectorAll('svg')];
    const n = sel => svgs.reduce((s, svg) => s + svg.querySelectorAll(sel).length, 0);
    const texts = svgs.flatMap(svg => [...svg.querySelectorAll('text')])
      .filter(t => t.textContent.trim() !== '').length;
    const box = root.getBoundingClientRect();
    return { isSvg, svgs: svgs.length, rect: n('rect'), line: n('line'),
      path: n('path'), poly: n('polyline') + n('polygon'), circle: n('circle') + n('ellipse'),
      text: texts, width: Math.ceil(box.width), height: Math.ceil(box.height) };
  });
  if (dom.parseError) {
    await page.screenshot({ path: pngPath }).catch(() => 0);
    return { fail: `not well-formed XML: ${dom.parseError.replace(/^This page contains the following errors: ?/, '')
      .replace(/ ?Below is a rendering.*$/, '').slice(0, 200)}` };
  }
  // A standalone SVG gets a viewport of its own size, so the PNG is the picture itself.
  if (dom.isSvg && dom.width > 0 && dom.height > 0)
    await page.setViewportSize({ width: Math.min(dom.width, 8000), height: Math.min(dom.height, 8000) });
  await nextFrames(page);
  // (fullPage hangs on a standalone SVG document; its viewport is its size anyway)
  const buf = await page.screenshot({ path: pngPath, fullPage: !dom.isSvg });
  const stats = pixelStats(decodePng(buf));
  const shapes = dom.rect + dom.line + dom.path + dom.poly + dom.circle;
  const detail = dom.svgs ? `${dom.rect} rect, ${dom.line} line, ${dom.path} path, ` +
    `${dom.poly} poly, ${dom.circle} circle/ellipse, ${dom.text} text` : 'no <svg>';
  let fail = pixelProblem(stats);
  if (!fail && dom.svgs && (shapes === 0 || dom.text === 0))
    fail = `SVG without ${shapes === 0 ? 'shapes' : 'non-empty <text>'} (${detail})`;
  return { fail, stats, detail };
}

async function checkTrace(page, base, traceUrl, pngPath, log) {
  await page.goto(`${base}/speedscope/index.html#profileURL=${encodeURIComponent(traceUrl)}`,
                  { waitUntil: 'load', timeout: TIMEOUT });
  const state = await page.waitForFunction(() => {
    const t = document.body ? document.body.innerText : '';
    if (t.includes('Something went wrong')) return 'error';
    if (t.includes('Drag and drop a profile')) return 'drop zone';
    return t.includes('Sandwich') && t.includes('Time Order') ? 'loaded' : null;
  }, null, { timeout: TIMEOUT, polling: 100 }).then(h => h.jsonValue())
    .catch(() => log.dialogs.length ? 'alert' : 'timeout');
  if (state !== 'loaded') {
    await page.screenshot({ path: pngPath }).catch(() => 0);
    return { fail: `speedscope did not show the trace (${state}` +
      (log.dialogs.length ? `: "${log.dialogs.join('; ')}"` : '') + ')' };
  }
  // The toolbar reads "<process> (pid P), <thread> (tid T) (k/N)": speedscope shows one
  // thread at a time; key n goes to the next. Each is shown; at least one must pass the pixel
  // rule (an idle process legitimately draws little). The first, what a user sees, is
  // OUTDIR/<name>.png; with BEAMLET_THREAD_PNGS=1 the others are OUTDIR/<name>.thread<k>.png.
  const where = () => page.evaluate(() => {
    const m = /\((\d+)\/(\d+)\)/.exec(document.body.innerText);
    return { k: m ? +m[1] : 1, n: m ? +m[2] : 1, canvases: document.querySelectorAll('canvas').length };
  });
  const at = await where(), shots = [];
  const threads = Math.min(at.n, MAX_THREADS);
  for (let k = 1; k <= threads; k++) {
    if (k > 1) {
      await page.keyboard.press('n');
      await page.waitForFunction(k => document.body.innerText.includes(`(${k}/`), k, { timeout: 5000 });
    }
    await page.waitForTimeout(k === 1 ? 300 : 50);   // speedscope draws WebGL on later frames
    await nextFrames(page);
    const png = k === 1 ? pngPath : THREAD_PNGS ? pngPath.replace(/\.png$/, `.thread${k}.png`) : undefined;
    shots.push({ k, stats: pixelStats(decodePng(await page.screenshot({ path: png })), 30) });  // below toolbar
  }
  if (log.dialogs.length) return { fail: `alert "${log.dialogs.join('; ')}"` };
  if (log.unbalanced.length)
    return { fail: `speedscope dropped ${log.unbalanced.length} E event(s) it could not match ` +
      `to an open B (an E needs the name of its B): ${log.unbalanced[0]}` };
  if (at.canvases === 0) return { fail: 'speedscope drew no canvas' };
  const good = shots.filter(t => !pixelProblem(t.stats));
  if (good.length === 0)
    return { fail: `${threads > 1 ? `all ${threads} threads: ` : ''}${pixelProblem(shots[0].stats)}` };
  const webgl = log.webgl ? `; WebGL: ${/SwiftShader/.test(log.webgl) ? 'SwiftShader' : log.webgl}` : '';
  const open = log.open ? `; ${log.open} slice(s) never ended, closed at the end` : '';
  const sparse = shots.reduce((x, t) => t.stats.pct < x.stats.pct ? t : x);
  const sparsest = good.length < threads ? `, sparsest thread ${sparse.k}: ${sparse.stats.pct.toFixed(1)}%` : '';
  return { stats: shots[0].stats, detail: `speedscope: ${at.n} thread(s), ${threads} shown, ` +
    `${good.length} above the pixel rule${sparsest}${open}${webgl}` };
}

async function main() {
  const server = http.createServer(serve);
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  let ctx = null, failures = 0;
  const used = new Set();
  try {
    ctx = await chromium.launchPersistentContext(env.BC_USERDATA, {
      executablePath: env.BC_CHROMIUM, headless: true, timeout: 60000,
      viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader',
        '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    // Nothing leaves the machine: requests to anything but our server are refused (and
    // reported as external resources).
    let external = [];
    await ctx.route(u => !u.href.startsWith(base + '/') && !/^(data|blob|about):/.test(u.protocol),
      route => { external.push(route.request().url()); return route.abort(); });
    for (let i = 0; i < files.length; i++) {
      const file = files[i], ext = path.extname(file).toLowerCase();
      let stem = path.basename(file, path.extname(file)), k = 2;
      while (used.has(stem)) stem = `${path.basename(file, path.extname(file))}-${k++}`;
      used.add(stem);
      const pngPath = path.join(outdir, stem + '.png');
      const fileUrl = `${base}/file/${i}/${encodeURIComponent(path.basename(file))}`;
      const page = ctx.pages()[0] && i === 0 ? ctx.pages()[0] : await ctx.newPage();
      await page.setViewportSize({ width: 1280, height: 720 });
      const log = { errors: [], dialogs: [], webgl: '', unbalanced: [], open: 0 };
      page.on('pageerror', e => log.errors.push(String(e.message || e).split('\n')[0]));
      page.on('dialog', d => { log.dialogs.push(d.message()); d.dismiss().catch(() => 0); });
      page.on('console', m => {
        const w = /WebGL initialized\. renderer: (.*?), vendor:/.exec(m.text());
        if (w) log.webgl = w[1];
        // speedscope's importer: an E it cannot match is dropped (the picture is then wrong);
        // a B never ended is closed at the end of the thread's profile (as Chrome does).
        if (/Doing nothing instead/.test(m.text())) log.unbalanced.push(m.text());
        if (/was still open at end of profile/.test(m.text())) log.open++;
      });
      served = []; external = [];
      let r;
      try {
        if (ext === '.json') {
          JSON.parse(fs.readFileSync(file, 'utf8'));   // a syntax error is ours to report
          r = await checkTrace(page, base, fileUrl, pngPath, log);
        } else {
          r = await checkPicture(page, fileUrl, pngPath);
          const own = new URL(fileUrl).pathname;
          const others = served.filter(p => p !== own)
            .map(p => base + p).concat(external);
          if (!r.fail && others.length)
            r.fail = `not self-contained: asked for ${[...new Set(others)].slice(0, 3).join(', ')}`;
        }
      } catch (e) {
        r = { fail: String(e.message || e).split('\n')[0] };
      }
      if (!r.fail && log.errors.length) r.fail = `script error: ${log.errors[0]}`;
      if (r.fail) {
        failures++;
        say(`FAIL ${file}: ${r.fail}` + (fs.existsSync(pngPath) ? ` (screenshot ${pngPath})` : ''));
      } else {
        say(`ok ${file} -> ${pngPath} (${r.stats.colours} distinct colours, ` +
          `${r.stats.pct.toFixed(1)}% non-background; ${r.detail})`);
      }
      await page.close().catch(() => 0);
    }
  } finally {
    if (ctx) await ctx.close().catch(() => 0);
    server.close();
  }
  return failures ? 1 : 0;
}

main().then(code => process.exit(code), e => {
  say(`FAIL browser_check: ${String(e.message || e).split('\n')[0]}`);
  process.exit(1);
});
JS

rc=0
BC_CACHE="$CACHE" BC_CHROMIUM="$CHROMIUM" BC_USERDATA="$WORK/profile" \
  node "$WORK/check.cjs" "$OUTDIR" "$@" &
NODE_PID=$!
wait "$NODE_PID" || rc=$?
NODE_PID=""
exit "$rc"
