package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.TrainingDataBucket;
import io.github.trainingdata.cdk.training.ChannelInputMode;
import io.github.trainingdata.cdk.training.ChannelRules;
import io.github.trainingdata.cdk.training.TrainingChannel;
import io.github.trainingdata.cdk.training.TrainingImage;
import io.github.trainingdata.cdk.training.TrainingJobDefinition;
import io.github.trainingdata.cdk.training.TrainingJobDefinitionProps;
import io.github.trainingdata.examples.docs.SharedBucketExample.SharedBucketStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;

/**
 * A channel kind written outside the library: a manifest of the shared bucket, rendered, validated with its own rule
 * and granted like the library's kinds (TrainingChannel's hooks are protected, ChannelRules raises its rule).
 */
class OutsideChannelTest {
    /** A team's rule: manifests live under {@code manifests/}. */
    static final SynthRule MANIFEST_PLACE = SynthRule.of("TEAM_MANIFEST_PLACE", "team manifest channel",
            "channels[i].key", "a key under manifests/", "the team's own convention");

    /** An S3 manifest channel on the shared bucket, as a platform team might write it. */
    static final class TeamManifestChannel extends TrainingChannel {
        private final SharedBucketStore store;
        private final String key;

        TeamManifestChannel(String name, SharedBucketStore store, String key) {
            super(name);
            this.store = store;
            this.key = key;
        }

        @Override
        public ChannelInputMode getInputMode() {
            return ChannelInputMode.FILE;
        }

        @Override
        public SharedBucketStore getStore() {
            return store;
        }

        @Override
        protected StoreAccess storeAccess() {
            return StoreAccess.READ;
        }

        @Override
        protected String grantedPath() {
            return "images";
        }

        @Override
        protected void validate(ChannelRules rules, ChannelInputMode effectiveMode) {
            if (!key.startsWith("manifests/")) {
                throw rules.error(MANIFEST_PLACE, "key", key, "a key under manifests/");
            }
        }

        @Override
        protected Map<String, Object> render() {
            Map<String, Object> s3 = new LinkedHashMap<>();
            s3.put("S3DataType", "ManifestFile");
            s3.put("S3Uri", store.uri(key));
            s3.put("S3DataDistributionType", "FullyReplicated");
            Map<String, Object> channel = new LinkedHashMap<>();
            channel.put("ChannelName", getName());
            channel.put("DataSource", Map.of("S3DataSource", s3));
            channel.put("InputMode", "File");
            return channel;
        }
    }

    private static TrainingJobDefinitionProps.Builder props(Stack stack) {
        return TrainingJobDefinitionProps.builder()
                .trainingImage(TrainingImage.fromUri("123456789012.dkr.ecr.us-east-1.amazonaws.com/trainer:latest"))
                .instanceType("ml.g5.xlarge")
                .outputBucket(new TrainingDataBucket(stack, "Output"));
    }

    @Test
    void aChannelKindWrittenOutsideTheLibraryIsRenderedAndChecked() {
        Stack stack = new Stack(new App(), "Team");
        SharedBucketStore shared = new SharedBucketStore(stack, "Shared", "team-a-datasets");
        TrainingJobDefinition job = new TrainingJobDefinition(stack, "Training", props(stack)
                .channels(List.of(new TeamManifestChannel("train", shared, "manifests/train.json"))).build());

        Map<?, ?> channel = (Map<?, ?>) ((List<?>) job.getRequest().get("InputDataConfig")).get(0);
        assertEquals(Map.of("S3DataSource", Map.of("S3DataType", "ManifestFile",
                "S3Uri", "s3://team-a-datasets/manifests/train.json", "S3DataDistributionType", "FullyReplicated")),
                channel.get("DataSource"));
        Stack other = new Stack(new App(), "Other");
        SharedBucketStore otherShared = new SharedBucketStore(other, "Shared", "team-a-datasets");
        ConfigurationError e = assertThrows(ConfigurationError.class, () -> new TrainingJobDefinition(other, "Bad",
                props(other).channels(List.of(new TeamManifestChannel("train", otherShared, "train.json"))).build()));
        assertEquals(MANIFEST_PLACE.getId(), e.getRuleId());
        assertEquals("Other/Bad: invalid channels[0].key 'train.json': a key under manifests/ [" + e.getRuleId() + "]",
                e.getMessage());
    }
}
