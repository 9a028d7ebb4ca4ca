package io.github.trainingdata.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.TestApps;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;

/**
 * Texts in create-only properties never carry a construct path or a stack name: {@code GroupDescription} is
 * create-only on {@code AWS::EC2::SecurityGroup} (and {@code SecurityGroupIds} on {@code AWS::FSx::FileSystem}), so a
 * description that follows a rename replaces the group, and with the Lustre cache's group the cache. The wording is
 * pinned here: changing it replaces every deployed group once.
 */
class CreateOnlyTextTest {
    private static final List<String> DESCRIPTIONS = List.of(
            "EFS file system: NFS from training jobs",
            "FSx for Lustre cache: Lustre traffic from itself and from training jobs",
            "Function that creates EFS directories: NFS to the file system only",
            "SageMaker training jobs that read the training data stores");

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.trainingdata.examples.BareAppTest#examples")
    void securityGroupDescriptionsAreConstant(String name, Function<App, List<Stack>> build) {
        for (Stack stack : build.apply(TestApps.app())) {
            TreeSet<String> descriptions = new TreeSet<>();
            Template.fromStack(stack).findResources("AWS::EC2::SecurityGroup").values().forEach(group ->
                    descriptions.add(String.valueOf(((Map<?, ?>) group.get("Properties")).get("GroupDescription"))));
            assertEquals(List.of(), descriptions.stream().filter(d -> !DESCRIPTIONS.contains(d)).toList(),
                    name + " " + stack.getStackName() + ": a description outside the pinned, constant ones");
        }
    }
}
