export { publishedPackage as default } from '../tsup.packages';
