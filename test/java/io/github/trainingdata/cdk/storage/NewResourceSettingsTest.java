package io.github.trainingdata.cdk.storage;

import static io.github.trainingdata.cdk.RuleAssertions.assertRule;

import io.github.trainingdata.cdk.TestApps;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;

/** Every getter of a props class counts as a new-resource setting unless named as shared: none can be forgotten. */
class NewResourceSettingsTest {
    /** Props as a later change might leave them: {@code addedLater} is in no list anywhere. */
    public static final class Props {
        public String getExisting() {
            return "fs-1";
        }

        public String getShared() {
            return "applies to both";
        }

        public Integer getAddedLater() {
            return 7;
        }

        public String getUnset() {
            return null;
        }
    }

    @Test
    void aSettingNobodyListedIsRejectedWithTheExistingResource() {
        Stack stack = TestApps.stack();
        assertRule("STORE_EXISTING_OR_NEW", () -> NewResourceSettings.rejectWithExisting(stack, new Props(), "", "existing", "thing", "new-thing",
                Set.of("existing", "shared")), "Test", "addedLater", "set together with existing",
                "either an existing thing or settings for a new one, not both (new-thing settings given: addedLater)");
    }

    @Test
    void sharedAndUnsetSettingsPass() {
        NewResourceSettings.rejectWithExisting(TestApps.stack(), new Props(), "", "existing", "thing", "new-thing",
                Set.of("existing", "shared", "addedLater"));
    }
}
