// The live chart of the console page "Virtual Threads": polls the bundle's series JSON every 1.5 s and draws the last
// minutes as SVG, one small chart per figure pair, with a dashed mark where the HTTP mode changed. No library: the
// page must work without internet, and four polylines do not need one. The container's data-updates attribute counts
// the updates drawn (the browser test reads it).
(function () {
    'use strict';
    var box = document.getElementById('slingvt-live');
    if (!box) {
        return;
    }
    var url = box.getAttribute('data-series');
    var status = document.getElementById('slingvt-live-status');
    var SVG = 'http://www.w3.org/2000/svg';
    var W = 560, H = 140, PAD = 34;
    var charts = [
        {title: 'Requests in flight / queued', lines: [['inFlight', '#1f77b4', 'in flight'], ['queued', '#ff7f0e', 'queued']]},
        {title: 'Admitted / rejected per second', lines: [['admittedPerSecond', '#2ca02c', 'admitted/s'], ['rejectedPerSecond', '#d62728', 'rejected/s']]},
        {title: 'Latency p50 / p99 (ms)', lines: [['p50Millis', '#9467bd', 'p50'], ['p99Millis', '#8c564b', 'p99']]},
        {title: 'Carriers busy / pinned per second', lines: [['carriersBusy', '#17becf', 'carriers busy'], ['pinnedPerSecond', '#e377c2', 'pinned/s']]}
    ];
    var updates = 0;

    function el(name, attrs, parent) {
        var e = document.createElementNS(SVG, name);
        Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
        if (parent) {
            parent.appendChild(e);
        }
        return e;
    }

    function text(parent, x, y, value, color, anchor) {
        var t = el('text', {x: x, y: y, fill: color || '#333', 'font-size': '11', 'text-anchor': anchor || 'start'}, parent);
        t.textContent = value;
        return t;
    }

    function draw(chart, points, capacity) {
        var svg = el('svg', {width: W, height: H, 'class': 'slingvt-chart', 'data-title': chart.title});
        el('rect', {x: PAD, y: 16, width: W - PAD - 8, height: H - 36, fill: '#fafafa', stroke: '#ccc'}, svg);
        text(svg, PAD, 11, chart.title);
        var max = 0;
        points.forEach(function (p) {
            chart.lines.forEach(function (l) {
                if (typeof p[l[0]] === 'number' && p[l[0]] > max) {
                    max = p[l[0]];
                }
            });
        });
        max = max > 0 ? max * 1.1 : 1;
        text(svg, PAD - 3, 24, String(Math.round(max)), '#666', 'end');
        text(svg, PAD - 3, H - 20, '0', '#666', 'end');
        var plotW = W - PAD - 8, plotH = H - 36;
        var offset = capacity - points.length;
        function x(i) { return PAD + plotW * (offset + i) / Math.max(1, capacity - 1); }
        function y(v) { return 16 + plotH - plotH * v / max; }
        var marks = 0;
        points.forEach(function (p, i) {
            if (i > 0 && p.mode !== points[i - 1].mode) {
                // Labels of marks close together would overlap: each one a line lower than the previous, cycling.
                var labelY = 28 + 11 * (marks++ % 3);
                el('line', {x1: x(i), x2: x(i), y1: 16, y2: H - 20, stroke: '#555', 'stroke-dasharray': '4 3',
                    'class': 'slingvt-mode-mark', 'data-mode': p.mode, 'data-t': String(p.t)}, svg);
                var right = x(i) > W - 90;
                text(svg, right ? x(i) - 3 : x(i) + 3, labelY, 'mode ' + p.mode, '#555', right ? 'end' : 'start');
            }
        });
        chart.lines.forEach(function (l, n) {
            // One polyline per run of points with a value: a second without requests has no latency, and a line
            // across it would draw figures that were never measured.
            var runs = [[]];
            points.forEach(function (p, i) {
                if (typeof p[l[0]] === 'number') {
                    runs[runs.length - 1].push(x(i).toFixed(1) + ',' + y(p[l[0]]).toFixed(1));
                } else if (runs[runs.length - 1].length) {
                    runs.push([]);
                }
            });
            runs.forEach(function (coords) {
                el('polyline', {points: coords.join(' '), fill: 'none', stroke: l[1], 'stroke-width': '1.5', 'data-series': l[0]}, svg);
            });
            var last = points.length ? points[points.length - 1][l[0]] : null;
            text(svg, PAD + 6 + n * 200, H - 5, l[2] + ': ' + (last === null || last === undefined ? 'n/a' : last), l[1]);
        });
        return svg;
    }

    function render(data) {
        while (box.firstChild) {
            box.removeChild(box.firstChild);
        }
        // The time axis spans the points kept, at least one minute: a fresh page is not a sliver at the right edge.
        var capacity = Math.max(data.points.length, 60000 / data.intervalMillis);
        charts.forEach(function (c) { box.appendChild(draw(c, data.points, capacity)); });
        updates++;
        var last = data.points.length ? data.points[data.points.length - 1] : {};
        box.setAttribute('data-updates', String(updates));
        box.setAttribute('data-points', String(data.points.length));
        box.setAttribute('data-server-updates', String(data.updates));
        box.setAttribute('data-last', JSON.stringify(last));
        status.textContent = 'updated ' + new Date().toLocaleTimeString() + ', ' + data.points.length + ' points, one per '
            + (data.intervalMillis / 1000) + ' s; mode ' + (last.mode || 'n/a');
    }

    function poll() {
        fetch(url, {credentials: 'same-origin', cache: 'no-store'})
            .then(function (r) {
                if (!r.ok) {
                    throw new Error('HTTP ' + r.status);
                }
                return r.json();
            })
            .then(function (data) {
                if (!data.enabled) {
                    status.textContent = data.reason;
                    return;
                }
                render(data);
            })
            .catch(function (e) { status.textContent = 'update failed: ' + e.message + ' (retrying)'; })
            .then(function () { setTimeout(poll, 1500); });
    }
    poll();
}());
