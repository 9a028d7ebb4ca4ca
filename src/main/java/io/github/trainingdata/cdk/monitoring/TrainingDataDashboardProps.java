package io.github.trainingdata.cdk.monitoring;

import io.github.trainingdata.cdk.preload.LustrePreload;
import io.github.trainingdata.cdk.storage.TrainingDataStore;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import java.util.List;
import software.amazon.awscdk.Duration;

/**
 * Properties of a {@link TrainingDataDashboard}: what to show (at least one store, preload or training-job
 * definition) and how.
 */
public final class TrainingDataDashboardProps {
    private final String dashboardName;
    private final List<TrainingDataStore> stores;
    private final List<LustrePreload> preloads;
    private final List<TrainingJobDefinition> definitions;
    private final Duration period;

    private TrainingDataDashboardProps(Builder b) {
        this.dashboardName = b.dashboardName;
        this.stores = b.stores == null ? List.of() : List.copyOf(b.stores);
        this.preloads = b.preloads == null ? List.of() : List.copyOf(b.preloads);
        this.definitions = b.definitions == null ? List.of() : List.copyOf(b.definitions);
        this.period = b.period;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the dashboard name, or null for a generated one */
    public String getDashboardName() {
        return dashboardName;
    }

    /** @return the stores, in order (empty when none) */
    public List<TrainingDataStore> getStores() {
        return stores;
    }

    /** @return the preloads, in order (empty when none) */
    public List<LustrePreload> getPreloads() {
        return preloads;
    }

    /** @return the training-job definitions, in order (empty when none) */
    public List<TrainingJobDefinition> getDefinitions() {
        return definitions;
    }

    /** @return the metric period, or null for the default */
    public Duration getPeriod() {
        return period;
    }

    /** Builder of {@link TrainingDataDashboardProps}. */
    public static final class Builder {
        private String dashboardName;
        private List<TrainingDataStore> stores;
        private List<LustrePreload> preloads;
        private List<TrainingJobDefinition> definitions;
        private Duration period;

        private Builder() {
        }

        /**
         * The dashboard's name (letters, digits, {@code -} and {@code _}). Changing it replaces the dashboard.
         *
         * @default a name CloudFormation generates
         */
        public Builder dashboardName(String dashboardName) {
            this.dashboardName = dashboardName;
            return this;
        }

        /**
         * Stores to graph, each with its own rows ({@link TrainingDataStore#dashboardRows}): a Lustre cache's read and
         * write throughput against its baseline and burst and its fullest disk's free space; an EFS store's
         * throughput, metered against permitted throughput, General Purpose I/O limit and burst credits.
         *
         * @default none
         */
        public Builder stores(List<? extends TrainingDataStore> stores) {
            this.stores = stores == null ? null : List.copyOf(stores);
            return this;
        }

        /**
         * Preloads to follow: the worker job's files, bytes and seconds, and its log.
         *
         * @default none
         */
        public Builder preloads(List<LustrePreload> preloads) {
            this.preloads = preloads;
            return this;
        }

        /**
         * Training-job definitions (deployed, so with a state machine) whose executions to count by outcome
         * and time.
         *
         * @default none
         */
        public Builder definitions(List<TrainingJobDefinition> definitions) {
            this.definitions = definitions;
            return this;
        }

        /**
         * The period every graphed metric is aggregated over: a whole number of minutes.
         *
         * @default 5 minutes
         */
        public Builder period(Duration period) {
            this.period = period;
            return this;
        }

        /** @return the props */
        public TrainingDataDashboardProps build() {
            return new TrainingDataDashboardProps(this);
        }
    }
}
