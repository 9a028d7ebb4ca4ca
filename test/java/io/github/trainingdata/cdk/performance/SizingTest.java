package io.github.trainingdata.cdk.performance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.limits.FsxLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SizingTest {

    private static final long GIB = ByteSize.GIB;

    @ParameterizedTest
    @ValueSource(ints = {1200, 2400, 4800, 7200, 24000, 2_147_481_600})
    void acceptsScratch2Capacities(int gib) {
        assertTrue(FsxLimits.isValidSsdCapacityGiB(gib));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -2400, -1200, 1, 1199, 1201, 1800, 2401, 3600, 6000})
    void rejectsOtherCapacities(int gib) {
        assertFalse(FsxLimits.isValidSsdCapacityGiB(gib));
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
            assertTrue(FsxLimits.isValidSsdCapacityGiB(capacity), "capacity " + capacity);
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
        assertEquals("capacityGiB must be 1200, 2400, or a multiple of 2400 GiB (SCRATCH_2 and PERSISTENT_2), was 1800", e.getMessage());
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
    void loadCapacityFollowsTheWriteThroughputOf100MBpsPerTiB() {
        // 1200 GiB = 1.171875 TiB loads at 117.1875 MB/s; 2400 GiB at 234.375 MB/s.
        assertEquals(1200, Sizing.lustreCapacityForLoadGiB(1));
        assertEquals(1200, Sizing.lustreCapacityForLoadGiB(117.1875));
        assertEquals(2400, Sizing.lustreCapacityForLoadGiB(117.2));
        assertEquals(2400, Sizing.lustreCapacityForLoadGiB(234.375));
        assertEquals(4800, Sizing.lustreCapacityForLoadGiB(234.4));
        // 2 TB in 10 minutes is 3333.3 MB/s: 33.33 TiB = 34,133 GiB, rounded up to 15 x 2400 GiB.
        assertEquals(36000, Sizing.lustreCapacityForLoadGiB(2e6 / 600));
        for (double target : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertEquals("targetMBps must be a finite number greater than 0, was " + target,
                    assertThrows(IllegalArgumentException.class, () -> Sizing.lustreCapacityForLoadGiB(target))
                            .getMessage());
        }
    }

    @Test
    void aFileSystemHoldsElevenTwelfthsOfItsCapacityInFileData() {
        // The FSx guide's example: 2.2 TiB of OSTs on 2.4 TiB. 1200 GiB x 11/12 = 1100 GiB; 28,800 GiB x 11/12 = 26,400 GiB.
        assertEquals(1100 * GIB, Sizing.lustreUsableBytes(1200));
        assertEquals(2200 * GIB, Sizing.lustreUsableBytes(2400));
        assertEquals(26_400 * GIB, Sizing.lustreUsableBytes(28_800));
        assertEquals("capacityGiB must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> Sizing.lustreUsableBytes(0)).getMessage());
    }

    @Test
    void theMinimumCapacityIsTheSmallestWhoseUsableSpaceHoldsTheBytes() {
        assertEquals(1200, Sizing.lustreMinimumCapacityGiB(0));
        assertEquals(1200, Sizing.lustreMinimumCapacityGiB(1100 * GIB));
        assertEquals(2400, Sizing.lustreMinimumCapacityGiB(1100 * GIB + 1));
        // 5 TB = 4656.6 GiB needs 4656.6 x 12/11 = 5080 GiB: 3 x 2400. With 20% headroom it would be 5588 GiB, also 7200.
        assertEquals(7200, Sizing.lustreMinimumCapacityGiB(5 * ByteSize.TB));
        assertEquals("datasetBytes must be at least 0, was -1",
                assertThrows(IllegalArgumentException.class, () -> Sizing.lustreMinimumCapacityGiB(-1)).getMessage());
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
