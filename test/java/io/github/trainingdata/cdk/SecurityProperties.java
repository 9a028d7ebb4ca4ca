package io.github.trainingdata.cdk;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The security properties every synthesized template of this library must have, whatever feature flags the
 * app carries: checked on the template as CloudFormation will see it, and returned as readable violations.
 */
public final class SecurityProperties {
    private SecurityProperties() {
    }

    /** @return the violations in {@code template} (a synthesized template as a map), empty if none */
    public static List<String> violations(Map<String, Object> template) {
        Map<String, Map<String, Object>> resources = resources(template);
        List<String> found = new ArrayList<>();
        Set<String> logDestinations = new LinkedHashSet<>();
        resources.forEach((id, r) -> {
            if (type(r).equals("AWS::S3::Bucket") && props(r).get("LoggingConfiguration") instanceof Map<?, ?> logging
                    && logging.get("DestinationBucketName") instanceof Map<?, ?> ref && ref.get("Ref") != null) {
                logDestinations.add((String) ref.get("Ref"));
            }
        });
        resources.forEach((id, r) -> {
            Map<String, Object> p = props(r);
            switch (type(r)) {
                case "AWS::S3::Bucket" -> {
                    require(found, id, p.get("BucketEncryption") != null, "is not encrypted");
                    require(found, id, p.get("AccessControl") == null, "uses an ACL (" + p.get("AccessControl") + ")");
                    require(found, id, String.valueOf(p.get("OwnershipControls")).contains("BucketOwnerEnforced"),
                            "does not enforce bucket-owner object ownership (ACLs disabled)");
                    require(found, id, p.get("PublicAccessBlockConfiguration") instanceof Map<?, ?> block
                            && block.size() == 4 && block.values().stream().allMatch(Boolean.TRUE::equals),
                            "does not block all public access");
                    String policy = bucketPolicy(resources, id);
                    require(found, id, policy.contains("aws:SecureTransport=false"), "admits requests without TLS");
                    if (logDestinations.contains(id)) {
                        require(found, id, policy.contains("Service=logging.s3.amazonaws.com")
                                && policy.contains("s3:PutObject"),
                                "receives access logs without a bucket policy for logging.s3.amazonaws.com");
                    } else {
                        require(found, id, List.of("Retain", "RetainExceptOnCreate").contains(r.get("DeletionPolicy")), "is not retained");
                    }
                }
                case "AWS::KMS::Key" -> require(found, id, Boolean.TRUE.equals(p.get("EnableKeyRotation")),
                        "is not rotated");
                case "AWS::Logs::LogGroup" -> {
                    require(found, id, p.get("RetentionInDays") != null, "keeps logs forever");
                    require(found, id, p.get("KmsKeyId") != null, "is not encrypted with the data layer's key");
                }
                case "AWS::StepFunctions::StateMachine" -> {
                    require(found, id, String.valueOf(p.get("TracingConfiguration")).equals("{Enabled=true}"),
                            "has no X-Ray tracing");
                    require(found, id, p.get("LoggingConfiguration") != null, "does not log");
                }
                case "AWS::EC2::VPC" -> require(found, id, resources.values().stream()
                        .anyMatch(o -> type(o).equals("Custom::VpcRestrictDefaultSG")
                                && String.valueOf(props(o).get("DefaultSecurityGroupId")).contains(id)),
                        "keeps a default security group that admits traffic");
                case "AWS::EFS::FileSystem" -> require(found, id, Boolean.TRUE.equals(p.get("Encrypted")),
                        "is not encrypted");
                case "AWS::EC2::SecurityGroup", "AWS::EC2::SecurityGroupIngress" -> {
                    String ingress = String.valueOf(type(r).equals("AWS::EC2::SecurityGroup")
                            ? p.get("SecurityGroupIngress") : p);
                    require(found, id, !ingress.contains("0.0.0.0/0") && !ingress.contains("::/0"),
                            "admits the whole internet");
                }
                case "AWS::IAM::Policy", "AWS::IAM::ManagedPolicy", "AWS::IAM::Role" -> require(found, id,
                        PolicyStatements.of(r).stream().noneMatch(s -> "Allow".equals(s.get("Effect"))
                                && s.get("Action") != null && PolicyStatements.elements(s.get("Action")).contains("*")
                                && s.get("Resource") != null && PolicyStatements.elements(s.get("Resource")).contains("*")),
                        "allows every action on every resource");
                default -> { }
            }
        });
        return found;
    }

    private static void require(List<String> found, String id, boolean holds, String violation) {
        if (!holds) {
            found.add(id + " " + violation);
        }
    }

    private static String bucketPolicy(Map<String, Map<String, Object>> resources, String bucket) {
        return resources.values().stream()
                .filter(r -> type(r).equals("AWS::S3::BucketPolicy")
                        && String.valueOf(props(r).get("Bucket")).equals("{Ref=" + bucket + "}"))
                .map(r -> String.valueOf(props(r).get("PolicyDocument")))
                .findFirst().orElse("");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> resources(Map<String, Object> template) {
        return (Map<String, Map<String, Object>>) template.get("Resources");
    }

    private static String type(Map<String, Object> resource) {
        return (String) resource.get("Type");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> props(Map<String, Object> resource) {
        Object p = resource.get("Properties");
        return p == null ? Map.of() : (Map<String, Object>) p;
    }
}
