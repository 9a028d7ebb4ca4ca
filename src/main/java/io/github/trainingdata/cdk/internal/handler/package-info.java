/**
 * What the library's custom-resource handlers share at run time: read access to the custom-resource requests
 * and how they call AWS (SDK client settings, transient errors). AWS SDK only, no CDK classes: it ships in the
 * handlers' Lambda bundles. Not part of the API.
 */
package io.github.trainingdata.cdk.internal.handler;
