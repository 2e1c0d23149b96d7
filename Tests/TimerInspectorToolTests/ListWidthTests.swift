import Testing

/// Issue 23: `timer list` was about 110 columns wide and wrapped at 80. It fits 80 columns:
/// durations with at most three decimals, and a table that would still be wider wraps by
/// columns, as R and pandas print a wide frame — blocks that each start with the name.
@Suite struct ListWidthTests {
    @Test func listFitsEightyColumns() throws {
        let driver = try Driver()
        driver.run(
            "timer nstimer poll --interval 50ms --repeats",
            "timer gcd sync --interval 1s --queue background --leeway 100ms",
            "timer displaylink link --fps 30", "stall 100ms", "run 300ms")
        let text = driver.run("timer list --all")
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        let blocks = text.split(separator: "\n\n")
        #expect(blocks.count == 2)
        // Each block starts with the name column, so every row is found by its name.
        for block in blocks {
            #expect(block.hasPrefix("name "))
            #expect(block.contains("\nlink "))
        }
        // The display link's 33.333333 ms reads 33.333ms.
        #expect(text.contains(" 33.333ms "))
        #expect(!text.contains("33.333333ms"))
    }
}
