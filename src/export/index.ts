/** Export: a tenant's state as a catalogue (to-catalogue.ts), and a catalogue as manifest files (files.ts). */
export { remoteToCatalogue } from "./to-catalogue.js";
export { catalogueToFiles, clean, exportFiles, exportHeader, nestCategories, type ExportFile } from "./files.js";
