import Foundation

/// Inline SVG charts for the HTML report: no scripts, no external fonts; colours come from the page's
/// CSS classes so the charts follow its light and dark themes.
enum HTMLChart {
    /// One bar of a bar chart.
    struct Bar {
        var label: String
        var value: Double
        /// A second value drawn as a tick on the same row (the raw reference).
        var marker: Double?
        /// Text at the bar's end.
        var annotation: String
        /// An extra class for the bar (`regression`, `improvement`).
        var tone: String?
    }

    /// Horizontal bars, one per row, on a shared axis from zero, with an optional tick per row.
    static func bars(_ bars: [Bar], title: String, axisLabel: String, markerLabel: String?,
                     format: (_ tick: Double, _ largest: Double) -> String) -> String {
        // Room for the longest annotation at the longest bar's end (about 6.6 px a character at 12 px).
        let annotationWidth = max(170.0, Double(bars.map(\.annotation.count).max() ?? 0) * 6.6 + 12)
        let width = 820.0, labelWidth = 270.0, rowHeight = 26.0, top = 8.0, axisHeight = 34.0
        let legendHeight = markerLabel == nil ? 0.0 : 20.0
        let plotWidth = width - labelWidth - annotationWidth
        let largest = bars.map { max($0.value, $0.marker ?? 0) }.max() ?? 0
        let ticks = niceTicks(upTo: largest)
        let scale = plotWidth / (ticks.last ?? 1)
        let height = top + legendHeight + Double(bars.count) * rowHeight + axisHeight
        var svg = open(width: width, height: height, title: title)
        let plotTop = top + legendHeight
        if let markerLabel {
            svg += "<g class=\"legend\"><rect class=\"bar\" x=\"\(f(labelWidth))\" y=\"\(f(top))\" width=\"12\" height=\"10\"/>"
            svg += "<text x=\"\(f(labelWidth + 16))\" y=\"\(f(top + 9))\">median</text>"
            svg += "<line class=\"marker\" x1=\"\(f(labelWidth + 80))\" x2=\"\(f(labelWidth + 80))\" y1=\"\(f(top - 2))\" y2=\"\(f(top + 12))\"/>"
            svg += "<text x=\"\(f(labelWidth + 86))\" y=\"\(f(top + 9))\">\(HTMLText.escape(markerLabel))</text></g>"
        }
        let plotBottom = plotTop + Double(bars.count) * rowHeight
        for tick in ticks {
            let x = labelWidth + tick * scale
            svg += "<line class=\"grid\" x1=\"\(f(x))\" x2=\"\(f(x))\" y1=\"\(f(plotTop))\" y2=\"\(f(plotBottom))\"/>"
            svg += "<text class=\"tick\" x=\"\(f(x))\" y=\"\(f(plotBottom + 14))\" text-anchor=\"middle\">\(HTMLText.escape(format(tick, ticks.last ?? 1)))</text>"
        }
        svg += "<text class=\"axis\" x=\"\(f(labelWidth + plotWidth / 2))\" y=\"\(f(plotBottom + 30))\" text-anchor=\"middle\">\(HTMLText.escape(axisLabel))</text>"
        for (i, bar) in bars.enumerated() {
            let y = plotTop + Double(i) * rowHeight
            let length = max(bar.value * scale, bar.value > 0 ? 1 : 0)
            svg += "<g><title>\(HTMLText.escape(bar.label)): \(HTMLText.escape(bar.annotation))</title>"
            svg += "<text class=\"label\" x=\"\(f(labelWidth - 8))\" y=\"\(f(y + 17))\" text-anchor=\"end\">\(HTMLText.escape(clip(bar.label, 40)))</text>"
            svg += "<rect class=\"bar\(bar.tone.map { " " + $0 } ?? "")\" x=\"\(f(labelWidth))\" y=\"\(f(y + 5))\" width=\"\(f(length))\" height=\"\(f(rowHeight - 10))\" rx=\"2\"/>"
            if let marker = bar.marker {
                let x = labelWidth + marker * scale
                svg += "<line class=\"marker\" x1=\"\(f(x))\" x2=\"\(f(x))\" y1=\"\(f(y + 2))\" y2=\"\(f(y + rowHeight - 2))\"/>"
            }
            let end = labelWidth + max(length, (bar.marker ?? 0) * scale) + 6
            svg += "<text class=\"value\" x=\"\(f(end))\" y=\"\(f(y + 17))\">\(HTMLText.escape(bar.annotation))</text></g>"
        }
        return svg + "</svg>"
    }

    /// One line of a line chart.
    struct Series {
        var name: String
        /// The y value at each x category (nil: no point there).
        var values: [Double?]
        /// An extra class (`raw` draws dashed).
        var style: String
        /// Text above each point.
        var labels: [String?]
    }

    /// Lines over categories spaced evenly along x (batch sizes), y from zero.
    static func lines(_ series: [Series], categories: [String], title: String, xLabel: String, yLabel: String,
                      format: (_ value: Double, _ largest: Double) -> String) -> String {
        let width = 820.0, height = 300.0, left = 80.0, right = 30.0, top = 34.0, bottom = 52.0, inset = 36.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let largest = series.flatMap { $0.values.compactMap { $0 } }.max() ?? 0
        let ticks = niceTicks(upTo: largest)
        let yScale = plotHeight / (ticks.last ?? 1)
        let step = categories.count > 1 ? (plotWidth - 2 * inset) / Double(categories.count - 1) : 0
        func x(_ i: Int) -> Double { categories.count > 1 ? left + inset + Double(i) * step : left + plotWidth / 2 }
        func y(_ v: Double) -> Double { top + plotHeight - v * yScale }
        var svg = open(width: width, height: height, title: title)
        for (i, s) in series.enumerated() {
            let lx = left + Double(i) * 190
            svg += "<g class=\"legend\"><line class=\"line \(s.style)\" x1=\"\(f(lx))\" x2=\"\(f(lx + 22))\" y1=\"12\" y2=\"12\"/>"
            svg += "<text x=\"\(f(lx + 28))\" y=\"16\">\(HTMLText.escape(clip(s.name, 26)))</text></g>"
        }
        for tick in ticks {
            svg += "<line class=\"grid\" x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(y(tick)))\" y2=\"\(f(y(tick)))\"/>"
            svg += "<text class=\"tick\" x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(HTMLText.escape(format(tick, ticks.last ?? 1)))</text>"
        }
        for (i, category) in categories.enumerated() {
            svg += "<text class=\"tick\" x=\"\(f(x(i)))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\">\(HTMLText.escape(category))</text>"
        }
        svg += "<text class=\"axis\" x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">\(HTMLText.escape(xLabel))</text>"
        svg += "<text class=\"axis\" transform=\"translate(16 \(f(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(HTMLText.escape(yLabel))</text>"
        for s in series {
            let points = s.values.enumerated().compactMap { i, v in v.map { (x(i), y($0), i) } }
            if points.count > 1 {
                let path = points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
                svg += "<polyline class=\"line \(s.style)\" points=\"\(path)\"/>"
            }
            for point in points {
                let value = s.values[point.2] ?? 0
                svg += "<circle class=\"point \(s.style)\" cx=\"\(f(point.0))\" cy=\"\(f(point.1))\" r=\"3.5\">"
                svg += "<title>\(HTMLText.escape(s.name)), \(HTMLText.escape(categories[point.2])): \(HTMLText.escape(BenchFormat.seconds(value)))</title></circle>"
                if point.2 < s.labels.count, let label = s.labels[point.2] {
                    svg += "<text class=\"value\" x=\"\(f(point.0))\" y=\"\(f(point.1 - 8))\" text-anchor=\"middle\">\(HTMLText.escape(label))</text>"
                }
            }
        }
        return svg + "</svg>"
    }

    /// Round tick values from zero that cover `largest`: 0, 2, 4, 6 or 0, 0.5, 1.
    static func niceTicks(upTo largest: Double) -> [Double] {
        guard largest > 0, largest.isFinite else { return [0, 1] }
        let rough = largest / 4
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let count = Int((largest / step).rounded(.up))
        return (0...max(1, count)).map { Double($0) * step }
    }

    static func open(width: Double, height: Double, title: String) -> String {
        "<svg class=\"chart\" viewBox=\"0 0 \(f(width)) \(f(height))\" width=\"100%\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">"
            + "<title>\(HTMLText.escape(title))</title>"
    }

    static func clip(_ text: String, _ length: Int) -> String {
        text.count > length ? String(text.prefix(length - 1)) + "…" : text
    }

    /// A coordinate with at most one decimal.
    static func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// Escaping for HTML text and attribute values.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
