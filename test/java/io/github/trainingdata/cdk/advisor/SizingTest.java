package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.limits.FsxLimits;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SizingTest {

    private static final long GIB = ByteSize.GIB;

    @ParameterizedTest
    @ValueSource(ints = {1200, 2400, 4800, 7200, 24000, 2_147_481_600})
    void acceptsScratch2Capacities(int gib) {
        assertTrue(FsxLimits.isValidScratch2CapacityGiB(gib));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -2400, -1200, 1, 1199, 1201, 1800, 2401, 3600, 6000})
    void rejectsOtherCapacities(int gib) {
        assertFalse(FsxLimits.isValidScratch2CapacityGiB(gib));
    }

    @Test
    void emptyAndSmallDatasetsGetTheMinimumCapacity() {
        assertEquals(1200, Sizing.lustreCapacityGiB(0));
        assertEquals(1200, Sizing.lustreCapacityGiB(54 * ByteSize.GB));
    }

    @Test
    void capacityKeepsTwentyPercentHeadroom() {
        // 1000 GiB + 20% = 1200 GiB fits the minimum exactly; one GiB more does not.
        assertEquals(1200, Sizing.lustreCapacityGiB(1000 * GIB));
        assertEquals(2400, Sizing.lustreCapacityGiB(1001 * GIB));
        assertEquals(2400, Sizing.lustreCapacityGiB(2000 * GIB));
        // 2001 GiB needs 2401.2 GiB: the next multiple of 2400.
        assertEquals(4800, Sizing.lustreCapacityGiB(2001 * GIB));
        assertEquals(12000, Sizing.lustreCapacityGiB(9000 * GIB));
    }

    @Test
    void capacityIsAlwaysValidAndHoldsTheDatasetWithHeadroom() {
        for (long gib = 0; gib < 30_000; gib += 77) {
            int capacity = Sizing.lustreCapacityGiB(gib * GIB);
            assertTrue(FsxLimits.isValidScratch2CapacityGiB(capacity), "capacity " + capacity);
            assertTrue(capacity >= gib * (1 + PublishedFigures.LUSTRE_CAPACITY_HEADROOM), "dataset " + gib + " GiB");
        }
    }

    @Test
    void capacityRejectsNegativeDatasets() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizing.lustreCapacityGiB(-1));
        assertEquals("datasetBytes must be at least 0, was -1", e.getMessage());
    }

    @Test
    void capacityRejectsDatasetsBeyondAnIntOfGiB() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Sizing.lustreCapacityGiB(Long.MAX_VALUE));
        assertTrue(e.getMessage().startsWith("datasetBytes " + Long.MAX_VALUE + " needs "), e.getMessage());
        assertTrue(e.getMessage().contains("at most 2147481600 GiB"), e.getMessage());
    }

    @Test
    void throughputIsPerTibOfCapacity() {
        assertEquals(234.375, Sizing.lustreBaselineMBps(1200), 1e-9);
        assertEquals(1523.4375, Sizing.lustreBurstMBps(1200), 1e-9);
        assertEquals(468.75, Sizing.lustreBaselineMBps(2400), 1e-9);
        assertEquals(3046.875, Sizing.lustreBurstMBps(2400), 1e-9);
        assertEquals(4687.5, Sizing.lustreBaselineMBps(24000), 1e-9);
    }

    @Test
    void throughputRejectsInvalidCapacities() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizing.lustreBurstMBps(1800));
        assertEquals("capacityGiB must be 1200, 2400, or a multiple of 2400 GiB (SCRATCH_2), was 1800", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Sizing.lustreBaselineMBps(0));
    }

    @Test
    void moreCapacityNeverReadsSlower() {
        double previous = 0;
        for (int capacity = 1200; capacity <= 240_000; capacity = capacity == 1200 ? 2400 : capacity + 2400) {
            double baseline = Sizing.lustreBaselineMBps(capacity);
            assertTrue(baseline > previous, "capacity " + capacity);
            assertTrue(Sizing.lustreBurstMBps(capacity) > baseline);
            previous = baseline;
        }
    }

    @Test
    void capacityForThroughputIsTheSmallestWhoseBaselineReachesIt() {
        assertEquals(1200, Sizing.lustreCapacityForThroughputGiB(1));
        assertEquals(1200, Sizing.lustreCapacityForThroughputGiB(234.375));
        assertEquals(2400, Sizing.lustreCapacityForThroughputGiB(234.4));
        assertEquals(2400, Sizing.lustreCapacityForThroughputGiB(468.75));
        assertEquals(4800, Sizing.lustreCapacityForThroughputGiB(469));
        // 10 GB/s at 200 MB/s per TiB is 50 TiB = 51200 GiB, rounded up to 22 steps of 2400.
        assertEquals(52800, Sizing.lustreCapacityForThroughputGiB(10_000));
        for (double target = 1; target < 20_000; target *= 1.7) {
            assertTrue(Sizing.lustreBaselineMBps(Sizing.lustreCapacityForThroughputGiB(target)) >= target);
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -1, Double.NaN, Double.POSITIVE_INFINITY})
    void capacityForThroughputRejectsNonPositiveTargets(double target) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Sizing.lustreCapacityForThroughputGiB(target));
        assertEquals("targetMBps must be a finite number greater than 0, was " + target, e.getMessage());
    }

    @Test
    void preloadCapacityIsAtLeastTheDatasetCapacity() {
        // 54 GB in an hour needs only 15 MB/s: the dataset capacity decides.
        assertEquals(1200, Sizing.lustreCapacityForPreloadGiB(54 * ByteSize.GB, Duration.ofHours(1)));
        assertEquals(4800, Sizing.lustreCapacityForPreloadGiB(2001 * GIB, Duration.ofDays(1)));
    }

    @Test
    void preloadCapacityGrowsWhenTheDeadlineIsShort() {
        // 2 TB in 10 minutes needs 3333 MB/s of baseline: 16.7 TiB = 17067 GiB, rounded up to 8 x 2400 GiB.
        int capacity = Sizing.lustreCapacityForPreloadGiB(2 * ByteSize.TB, Duration.ofMinutes(10));
        assertEquals(19200, capacity);
        assertTrue(Sizing.lustreBaselineMBps(capacity) * 600 >= 2 * ByteSize.TB / (double) ByteSize.MB);
        assertTrue(Sizing.lustreBaselineMBps(capacity - 2400) * 600 < 2 * ByteSize.TB / (double) ByteSize.MB);
        assertTrue(Sizing.lustreCapacityForPreloadGiB(2 * ByteSize.TB, Duration.ofMinutes(5)) > capacity);
    }

    @Test
    void preloadCapacityRejectsBadDeadlines() {
        for (Duration deadline : new Duration[] {null, Duration.ZERO, Duration.ofSeconds(-1)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Sizing.lustreCapacityForPreloadGiB(GIB, deadline));
            assertEquals("deadline must be a positive duration, was " + deadline, e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Sizing.lustreCapacityForPreloadGiB(-5, Duration.ofHours(1)));
    }

    @ParameterizedTest
    @ValueSource(doubles = {1, 100, 1024.5, 3414})
    void efsProvisionedThroughputAcceptsTheApiRange(double mibps) {
        assertEquals(mibps, Sizing.efsProvisionedMibps(mibps));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, 0.99, 3414.01, 10_000, -1, Double.NaN})
    void efsProvisionedThroughputRejectsOutOfRange(double mibps) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizing.efsProvisionedMibps(mibps));
        assertEquals("targetMiBps must be between 1.0 and 3414.0 MiB/s (EFS provisioned throughput), was " + mibps,
                e.getMessage());
    }
}
