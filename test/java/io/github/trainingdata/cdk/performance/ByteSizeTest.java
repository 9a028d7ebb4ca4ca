package io.github.trainingdata.cdk.performance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {

    @ParameterizedTest
    @CsvSource({
        "54GB, 54000000000",
        "1.5TB, 1500000000000",
        "800MiB, 838860800",
        "123, 123",
        "0, 0",
        "40MB, 40000000",
        "2 GiB, 2147483648",
        "1kib, 1024",
        "7b, 7",
        "3KB, 3000",
        "1PB, 1000000000000000",
        "1PiB, 1125899906842624",
        "0.5TiB, 549755813888",
        ".25GB, 250000000",
        "1.0005KB, 1001",
        "' 12 MB ', 12000000",
    })
    void parsesDecimalAndBinaryUnits(String text, long bytes) {
        assertEquals(bytes, ByteSize.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "GB", "-5GB", "5XB", "5 G", "1,5GB", "1.GB", "5GB5", "five"})
    void rejectsWhatIsNotASize(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(text));
        assertTrue(e.getMessage().startsWith("size '" + text + "' is not a size: expected a number with an optional unit"),
                e.getMessage());
        assertTrue(e.getMessage().contains("KiB, MiB, GiB, TiB, PiB (powers of 1024)"), e.getMessage());
    }

    @Test
    void rejectsMissingAndTooLargeSizes() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(null))
                .getMessage().startsWith("size is missing"));
        assertEquals("size '9EB' is not a size: expected a number with an optional unit: B, KB, MB, GB, TB, PB "
                        + "(powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024), e.g. 54GB, 1.5TB, 800MiB, 123",
                assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("9EB")).getMessage());
        assertEquals("size '10000PB' is too large: at most 9223372036854775807 bytes",
                assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("10000PB")).getMessage());
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0 B",
        "123, 123 B",
        "999, 999 B",
        "1000, 1 KB",
        "36000, 36 KB",
        "838860800, 838.9 MB",
        "54000000000, 54 GB",
        "1500000000000, 1.5 TB",
        "2000000000000000, 2 PB",
    })
    void formatsWithDecimalUnits(long bytes, String text) {
        assertEquals(text, ByteSize.format(bytes));
    }

    @Test
    void formatRejectsNegativeSizes() {
        assertEquals("bytes must be at least 0, was -1",
                assertThrows(IllegalArgumentException.class, () -> ByteSize.format(-1)).getMessage());
    }
}
